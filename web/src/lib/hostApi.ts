// The embed's side of the postMessage protocol (v1): which messages it accepts from whom, and
// the events it posts back to its host page. docs/embedding.md ("Host API") documents both directions.
//
// Origin rule (modelled on Perfetto's embedding handshake):
// - With `?host=ORIGIN` the embed accepts commands only from ORIGIN and posts every event
//   only to ORIGIN.
// - Without it, commands are accepted from any origin (they only drive the view; nothing is
//   read back through them). Once the page has loaded, the embed posts `ready` to its parent
//   with targetOrigin '*': it carries only the protocol version. Every other event goes only
//   to the origin that last sent a valid `ping` (answered by `pong`): a host pings (again and
//   again, until the pong comes) to say where the events go. Events never go to a page that
//   did not ask for them.
import { PROTOCOL_VERSION } from './embed';
import type { LessonStep } from './lesson';

export type HostStatus = 'loading' | 'playing' | 'paused' | 'finished' | 'error';

export type HostEvent =
  | { event: 'ready' }
  | { event: 'pong'; id: string | number | null }
  | { event: 'status'; status: HostStatus }
  | { event: 'time'; ns: number }
  | { event: 'lesson'; step: number; of: number; caption: string | null };

/** The page's status word (as shown) in the protocol's terms. */
export function hostStatus(status: string): HostStatus {
  switch (status) {
    case 'running':
      return 'playing';
    case 'paused':
    case 'finished':
    case 'error':
      return status;
    default:
      return 'loading';
  }
}

/** The envelope of every event: `{type:'reclaimlab', v:1, event, ...}`. */
export function eventMessage(e: HostEvent): Record<string, unknown> {
  return { type: 'reclaimlab', v: PROTOCOL_VERSION, ...e };
}

/** Where events go: the fixed `host` origin, else the origin of the last ping (null: nowhere yet). */
export class HostChannel {
  private target: string | null;
  constructor(
    private readonly fixed: string | null,
    private readonly post: (msg: unknown, origin: string) => void,
  ) {
    this.target = fixed;
  }
  /** May a message from `origin` drive the embed? */
  accepts(origin: string): boolean {
    return this.fixed === null || origin === this.fixed;
  }
  /** A valid ping from `origin`: events go there from now on; answer it. */
  ping(origin: string, id: string | number | null): void {
    if (!this.accepts(origin)) return;
    if (this.fixed === null) this.target = origin === 'null' ? '*' : origin; // a sandboxed/file host has origin "null"
    this.send({ event: 'pong', id });
  }
  /** `ready` goes to the fixed host, or to any parent (it names nothing but the version). */
  ready(): void {
    this.post(eventMessage({ event: 'ready' }), this.fixed ?? '*');
  }
  send(e: HostEvent): void {
    if (this.target !== null) this.post(eventMessage(e), this.target);
  }
}

/** Where the clicker / next / prev goes in a lesson: the next or previous step's time (null: none). */
export function lessonTarget(steps: LessonStep[], nowNs: number, dir: 1 | -1): number | null {
  let k = -1;
  for (let i = 0; i < steps.length && steps[i]!.atNs <= nowNs; i++) k = i;
  if (dir > 0) return k + 1 < steps.length ? steps[k + 1]!.atNs : null;
  if (k > 0) return steps[k - 1]!.atNs;
  return k === 0 && steps[0]!.atNs > 0 ? 0 : null;
}
