// The host channel's origin rule, the event envelope, lesson stepping and the global keys' guard.
import { describe, expect, it } from 'vitest';
import { eventMessage, HostChannel, hostStatus, lessonTarget } from './hostApi';
import type { LessonStep } from './lesson';

describe('host channel', () => {
  const make = (fixed: string | null) => {
    const sent: [unknown, string][] = [];
    return { sent, ch: new HostChannel(fixed, (m, o) => sent.push([m, o])) };
  };

  it('without a host parameter: ready to any parent, other events only after a ping, to its origin', () => {
    const { sent, ch } = make(null);
    ch.ready();
    ch.send({ event: 'time', ns: 5 });
    expect(sent).toEqual([[{ type: 'reclaimlab', v: 1, event: 'ready' }, '*']]);
    expect(ch.accepts('https://any.example')).toBe(true);
    ch.ping('https://slides.example', 7);
    ch.send({ event: 'status', status: 'paused' });
    expect(sent.slice(1)).toEqual([
      [{ type: 'reclaimlab', v: 1, event: 'pong', id: 7 }, 'https://slides.example'],
      [{ type: 'reclaimlab', v: 1, event: 'status', status: 'paused' }, 'https://slides.example'],
    ]);
  });

  it('with a host parameter: commands only from it, every event only to it', () => {
    const { sent, ch } = make('https://slides.example');
    expect(ch.accepts('https://evil.example')).toBe(false);
    expect(ch.accepts('https://slides.example')).toBe(true);
    ch.ping('https://evil.example', null);
    expect(sent).toEqual([]);
    ch.ready();
    ch.send({ event: 'time', ns: 1 });
    expect(sent.map(([, o]) => o)).toEqual(['https://slides.example', 'https://slides.example']);
  });

  it('names the status in protocol terms and versions every event', () => {
    expect(['running', 'paused', 'finished', 'error', 'loading'].map(hostStatus)).toEqual(['playing', 'paused', 'finished', 'error', 'loading']);
    expect(eventMessage({ event: 'lesson', step: 2, of: 5, caption: 'x' })).toEqual({ type: 'reclaimlab', v: 1, event: 'lesson', step: 2, of: 5, caption: 'x' });
  });
});

describe('lesson stepping', () => {
  const steps = [100, 200, 300].map((atNs) => ({ atNs, caption: 'c', pause: false, highlight: null }) as LessonStep);
  it('goes to the next and previous step, and to 0 before the first', () => {
    expect(lessonTarget(steps, 0, 1)).toBe(100);
    expect(lessonTarget(steps, 150, 1)).toBe(200);
    expect(lessonTarget(steps, 300, 1)).toBeNull();
    expect(lessonTarget(steps, 250, -1)).toBe(100);
    expect(lessonTarget(steps, 100, -1)).toBe(0);
    expect(lessonTarget(steps, 50, -1)).toBeNull();
  });
});
