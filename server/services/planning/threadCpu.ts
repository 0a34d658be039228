import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * CPU milliseconds of the calling thread, for the fleet search's CPU-time cap (issue 32). Node 20
 * has no `process.threadCpuUsage` (it came in Node 23.9), and `process.cpuUsage` counts every
 * thread of the process, so two plans in two workers would each see the other's time. Linux keeps
 * each thread's user and system time in /proc/thread-self/stat (clock ticks of 1/100 s), and a
 * synchronous read there is answered for the thread that makes it. The file is read at most every
 * 5 ms of wall time (a read costs some 20 µs); elsewhere this falls back to `process.cpuUsage`.
 */
const TICK_MS = 10;
const REREAD_MS = 5;

function readThreadCpu(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    const ticks = Number(rest[11]) + Number(rest[12]);
    return Number.isFinite(ticks) ? ticks * TICK_MS : null;
  } catch {
    return null;
  }
}

export function threadCpuClock(): () => number {
  if (readThreadCpu() === null) {
    return () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
  }
  let lastWall = -Infinity;
  let lastCpu = 0;
  return () => {
    const wall = performance.now();
    if (wall - lastWall >= REREAD_MS) {
      lastWall = wall;
      lastCpu = readThreadCpu() ?? lastCpu;
    }
    return lastCpu;
  };
}
