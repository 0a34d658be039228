/**
 * Planned against actual arrival on simulated days (issue 31). Run directly: `npx tsx bench/arrivals.ts`.
 *
 * Each day: a depot and 40 stops around Sydney's CBD, visited in nearest-neighbour order. A stand-in
 * road engine gives each leg its own detour and speed (what OSRM's legs would be); those legs are
 * stored at "commit" and the promised arrivals walked over them with `roadEtas` (the server's one ETA
 * function). Then the day is driven: every leg takes its road time with traffic noise (log-normal,
 * plus an occasional hold-up), every stop its time at the door with noise, and the van's position is
 * replayed along the legs each minute with GPS noise. Reported, with the server's own statistics:
 * - promised at commit over the road legs, against the old great-circle promise (× 1.3 at 30 km/h);
 * - the live ETA a recipient sees 30 minutes before the van arrives (legs + progress + position).
 * Pure computation: no server, no database, well under a second.
 */
import { pathToFileURL } from 'node:url';
import { DEFAULT_TRAVEL, type EtaStop } from '../shared/routing/eta';
import { haversineDistance, type LatLng } from '../shared/routing/haversine';
import { createRng, type Rng } from '../shared/routing/rng';
import { roadEtas, type EtaOrigin, type RouteLegTime } from '../shared/routing/roadEta';
import { arrivalStats, type ArrivalSample, type ArrivalStats } from '../server/services/reports/arrivalStats';

const DEPOT: LatLng = { latitude: -33.8688, longitude: 151.2093 };
const STOPS = 40;
const DAYS = 20;
const SERVICE_S = 180;
const SHIFT_START = Date.parse('2026-03-02T21:00:00Z'); // 08:00 in Sydney
const AHEAD_MS = 30 * 60_000;

/** A standard normal draw (Box-Muller). */
const gauss = (rng: Rng) => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

function nearestOrder(points: LatLng[]): LatLng[] {
  const left = [...points];
  const out: LatLng[] = [];
  let here = DEPOT;
  while (left.length) {
    let best = 0;
    for (let i = 1; i < left.length; i++) if (haversineDistance(here, left[i]!) < haversineDistance(here, left[best]!)) best = i;
    here = left.splice(best, 1)[0]!;
    out.push(here);
  }
  return out;
}

interface DayResult {
  promised: ArrivalSample[];
  straight: ArrivalSample[];
  live: ArrivalSample[];
}

function simulateDay(rng: Rng): DayResult {
  const places = nearestOrder(
    Array.from({ length: STOPS }, () => ({
      latitude: DEPOT.latitude + (rng.next() - 0.5) * 0.16,
      longitude: DEPOT.longitude + (rng.next() - 0.5) * 0.2,
    })),
  );
  const stops: EtaStop[] = places.map((p, i) => ({ id: i + 1, ...p, serviceS: SERVICE_S, window: null }));
  // The road engine's legs: each with its own detour (1.2-1.7) at 22-34 km/h.
  const pts = [DEPOT, ...places];
  const legs: RouteLegTime[] = stops.map((s, i) => ({
    from: i === 0 ? null : i,
    to: s.id,
    durationS: (haversineDistance(pts[i]!, pts[i + 1]!) * (1.2 + 0.5 * rng.next())) / ((22 + 12 * rng.next()) / 3.6),
  }));
  const base = { now: SHIFT_START - 3_600_000, shiftStart: SHIFT_START, stops, model: DEFAULT_TRAVEL };
  const promised = roadEtas({ ...base, origin: { kind: 'start', at: DEPOT }, legs });
  const straight = roadEtas({ ...base, origin: { kind: 'start', at: DEPOT }, legs: [] });

  // The real day: traffic noise on each leg, a hold-up now and then, noise at each door.
  const actual: number[] = [];
  const left: number[] = [];
  let t = SHIFT_START;
  legs.forEach((l) => {
    const drive = l.durationS * Math.exp(0.18 * gauss(rng)) + (rng.next() < 0.05 ? 300 + 900 * rng.next() : 0);
    actual.push(t + drive * 1000);
    t += drive * 1000;
    left.push(t);
    t += Math.max(30, SERVICE_S * Math.exp(0.35 * gauss(rng))) * 1000;
    left[left.length - 1] = t;
  });

  // What the recipient of each stop is shown 30 minutes before the van arrives: the ETA from the
  // van's last position (replayed each minute along the leg, GPS noise ~20 m) or the last stop worked.
  const live: ArrivalSample[] = [];
  stops.forEach((s, k) => {
    const at = actual[k]! - AHEAD_MS;
    if (at < SHIFT_START) return;
    // Where the van is at `at`: at a door (k0 stops done) or on the leg to stop j.
    const done = left.filter((x) => x <= at).length;
    let origin: EtaOrigin;
    const legStart = done === 0 ? SHIFT_START : left[done - 1]!;
    if (done < k && actual[done]! > at) {
      // Driving to stop done+1: the last reading of the last whole minute, on the way.
      const fixAt = legStart + Math.floor((at - legStart) / 60_000) * 60_000;
      const from = done === 0 ? DEPOT : places[done - 1]!;
      const to = places[done]!;
      const f = Math.min(1, Math.max(0, (fixAt - legStart) / (actual[done]! - legStart)));
      const noise = () => (gauss(rng) * 20) / 111_000;
      origin =
        fixAt > legStart
          ? {
              kind: 'position',
              at: {
                latitude: from.latitude + (to.latitude - from.latitude) * f + noise(),
                longitude: from.longitude + (to.longitude - from.longitude) * f + noise(),
              },
              since: fixAt,
            }
          : done === 0
            ? { kind: 'start', at: DEPOT }
            : { kind: 'stop', id: done, at: places[done - 1]!, since: legStart };
    } else {
      origin = done === 0 ? { kind: 'start', at: DEPOT } : { kind: 'stop', id: done, at: places[done - 1]!, since: legStart };
    }
    const remaining = stops.slice(Math.min(done, k));
    const etas = roadEtas({ now: at, shiftStart: SHIFT_START, origin, stops: remaining, legs, model: DEFAULT_TRAVEL }, DEPOT);
    const mine = etas.find((e) => e.id === s.id);
    if (mine) live.push({ planned: mine.arrive, actual: actual[k]!, window: null });
  });
  return {
    promised: promised.map((e, k) => ({ planned: e.arrive, actual: actual[k]!, window: null })),
    straight: straight.map((e, k) => ({ planned: e.arrive, actual: actual[k]!, window: null })),
    live,
  };
}

export interface ArrivalBenchResult {
  promised: ArrivalStats;
  straight: ArrivalStats;
  live: ArrivalStats;
}

export function runArrivalBench(log: (line: string) => void = console.log): ArrivalBenchResult {
  const rng = createRng(31);
  const all: DayResult = { promised: [], straight: [], live: [] };
  for (let d = 0; d < DAYS; d++) {
    const r = simulateDay(rng);
    all.promised.push(...r.promised);
    all.straight.push(...r.straight);
    all.live.push(...r.live);
  }
  const out = { promised: arrivalStats(all.promised), straight: arrivalStats(all.straight), live: arrivalStats(all.live) };
  const line = (label: string, s: ArrivalStats) =>
    log(
      `${label.padEnd(46)} stops ${String(s.stops).padStart(4)}  mean |err| ${s.mean_abs_error_min?.toFixed(1).padStart(6)} min  p90 ${s.p90_abs_error_min?.toFixed(1).padStart(6)} min  bias ${s.mean_error_min?.toFixed(1).padStart(6)} min  in band ${Math.round((s.in_band ?? 0) * 100)}%`,
    );
  log(`${DAYS} simulated days × ${STOPS} stops, road legs with traffic noise, positions replayed each minute`);
  line('promised at commit, road legs', out.promised);
  line('promised at commit, great-circle (before)', out.straight);
  line('live ETA 30 min ahead (legs+progress+position)', out.live);
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runArrivalBench();
