import type { FleetModel } from './model';
import { Route } from './route';

/** A complete plan: one route per vehicle (maybe empty) plus the jobs currently left out. */
export class Solution {
  readonly routes: Route[];
  /** Route (vehicle index) serving each job, -1 when absent. */
  readonly routeOf: Int32Array;
  readonly posOf: Int32Array;
  absent: number[] = [];

  constructor(readonly m: FleetModel) {
    this.routes = Array.from({ length: m.V }, (_, v) => new Route(v, m.D));
    this.routeOf = new Int32Array(m.J).fill(-1);
    this.posOf = new Int32Array(m.J).fill(-1);
  }

  cost(): number {
    let c = 0;
    for (const r of this.routes) c += r.cost;
    return c;
  }

  /** Re-derives routeOf / posOf for one route after its job list changed. */
  index(r: number): void {
    const jobs = this.routes[r].jobs;
    for (let k = 0; k < jobs.length; k++) {
      this.routeOf[jobs[k]] = r;
      this.posOf[jobs[k]] = k;
    }
  }

  markAbsent(): void {
    for (const j of this.absent) {
      this.routeOf[j] = -1;
      this.posOf[j] = -1;
    }
  }

  insert(u: number, r: number, p: number): void {
    const route = this.routes[r];
    route.jobs.splice(p, 0, u);
    route.update(this.m);
    this.index(r);
  }

  /** Pickup a before stop p and delivery b before stop q >= p (positions of the route before either goes in). */
  insertPair(a: number, b: number, r: number, p: number, q: number): void {
    const route = this.routes[r];
    route.jobs.splice(q, 0, b);
    route.jobs.splice(p, 0, a);
    route.update(this.m);
    this.index(r);
  }
}
