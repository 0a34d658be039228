import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runApiBench } from './api';
import { runArrivalBench } from './arrivals';
import { runFleetBench } from './fleet';
import { runFleetDayBench } from './fleetDay';
import { runOptimizerBench } from './optimizer';
import { runPdptwBench } from './pdptw';

/** `npm run bench`: every benchmark in one run on this machine; figures go in closing notes, never in tests. */
async function optional(file: string, fn: string): Promise<void> {
  const path = new URL(file, import.meta.url);
  if (!existsSync(path)) return;
  const mod = (await import(pathToFileURL(path.pathname).href)) as Record<string, () => Promise<unknown>>;
  const run = mod[fn];
  if (typeof run === 'function') {
    console.log(`\n## ${file}`);
    await run();
  }
}

console.log('## API (bench/api.ts)');
await runApiBench();
console.log('\n## Route optimiser (bench/optimizer.ts, TSPLIB)');
await runOptimizerBench((line: string) => console.log(line));
console.log('\n## Fleet optimiser (bench/fleet.ts, Solomon VRPTW + Gehring & Homberger 1000)');
await runFleetBench((line: string) => console.log(line));
console.log('\n## A Sydney-sized day: first plan and memory (bench/fleetDay.ts, 3,000 parcels, 40 drivers)');
runFleetDayBench((line: string) => console.log(line));
console.log('\n## Pickup and delivery (bench/pdptw.ts, Li & Lim PDPTW 100 tasks)');
runPdptwBench((line: string) => console.log(line));
console.log('\n## Arrival times planned against actual (bench/arrivals.ts, simulated days on road legs)');
runArrivalBench((line: string) => console.log(line));
await optional('./sync.ts', 'runSyncBench');
await optional('./scale.ts', 'runScaleBench');
await optional('./bundle.ts', 'runBundleBench');
await optional('./firstLoad.ts', 'runFirstLoadBench');
await optional('./export.ts', 'runExportBench');
await optional('./upload.ts', 'runUploadBench');
await optional('./auth.ts', 'runAuthBench');
await optional('./files.ts', 'runFilesBench');
await optional('./postgres.ts', 'runPostgresBench');
await optional('./history.ts', 'runHistoryBench');
