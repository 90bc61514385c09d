// The postMessage API (docs/embedding.md, lib/embed.ts, lib/hostApi.ts): a host page drives the
// embed and, after a ping, hears back its status, time and lesson step. `ready` is posted once
// the linked state is in place (loaded and sought to the link's time); a command that arrives
// before, or while a seek runs, waits and is applied in order (useCommands).
import { useEffect, useMemo, useRef } from 'react';
import type { Knobs } from '../components/Controls';
import { applySet, parseControlMessage, type EmbedParams } from '../lib/embed';
import { HostChannel, hostStatus } from '../lib/hostApi';
import type { LessonStep } from '../lib/lesson';

interface HostDeps {
  embed: EmbedParams;
  /** Loaded, the link restored and no seek running: commands apply now. */
  idle: boolean;
  run: (command: () => void) => void;
  ready: boolean;
  finished: boolean;
  seeking: boolean;
  status: string;
  nowNs: number;
  stepNs: number;
  lessonSteps: LessonStep[];
  setPlaying: (on: boolean) => void;
  go: (dir: 1 | -1, unit?: 'lesson' | 'time', ns?: number) => void;
  pauseAndSeek: (ns: number) => void;
  setKnobs: (f: (k: Knobs) => Knobs) => void;
}

export function useHostApi(deps: HostDeps) {
  const { embed, idle, run, seeking, status, nowNs, lessonSteps } = deps;
  const h = useRef(deps);
  h.current = deps;
  const snapshot = useRef<() => void>(() => {});
  const channel = useMemo(
    () => new HostChannel(embed.host, (msg, origin) => window.parent !== window && window.parent.postMessage(msg, origin)),
    [embed.host],
  );
  useEffect(() => {
    const onMessage = (e: MessageEvent) => {
      if (!channel.accepts(e.origin)) return;
      const m = parseControlMessage(e.data);
      if (!m) return;
      if (m.action === 'ping') {
        channel.ping(e.origin, m.id);
        snapshot.current(); // the state as it is now, to a host that just said where events go
        return;
      }
      run(() => {
        const { finished, setPlaying, go, stepNs, pauseAndSeek, setKnobs } = h.current;
        if (m.action === 'play') {
          if (!finished) setPlaying(true);
        } else if (m.action === 'pause') setPlaying(false);
        else if (m.action === 'step') go(1, 'time', m.ns ?? stepNs);
        else if (m.action === 'next' || m.action === 'prev') go(m.action === 'next' ? 1 : -1);
        else if (m.action === 'seek') pauseAndSeek(m.ns);
        else setKnobs((k) => applySet(k, m));
      });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [channel, run]);

  // Events to the host: ready once, then status, time and lesson step as they change.
  const stepNow = lessonSteps.filter((st) => st.atNs <= nowNs).length;
  const sentReady = useRef(false);
  useEffect(() => {
    if (embed.embed && idle && !sentReady.current) {
      sentReady.current = true;
      channel.ready();
    }
  }, [embed.embed, idle, channel]);
  const hs = hostStatus(status);
  const lessonEvent = () =>
    lessonSteps.length > 0 && channel.send({ event: 'lesson', step: stepNow, of: lessonSteps.length, caption: stepNow > 0 ? lessonSteps[stepNow - 1]!.caption : null });
  snapshot.current = () => {
    channel.send({ event: 'status', status: hs });
    channel.send({ event: 'time', ns: nowNs });
    lessonEvent();
  };
  useEffect(() => {
    channel.send({ event: 'status', status: hs });
  }, [channel, hs]);
  const lastTime = useRef({ at: 0, ns: -1 });
  useEffect(() => {
    // While playing at most 10 time events a second; every time a paused run lands on.
    const t = performance.now();
    if (nowNs === lastTime.current.ns || (hs === 'playing' && t - lastTime.current.at < 100)) return;
    lastTime.current = { at: t, ns: nowNs };
    channel.send({ event: 'time', ns: nowNs });
  }, [channel, nowNs, hs]);
  useEffect(() => {
    if (!seeking) lessonEvent();
  }, [channel, lessonSteps, stepNow, seeking]); // eslint-disable-line react-hooks/exhaustive-deps
}
