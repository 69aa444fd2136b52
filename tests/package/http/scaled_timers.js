// Fake timers for the sandbox's poll schedule (API spec 8), shared by the tests of its client
// against the real service (sandbox_flow) and of its CLI (sandbox_cli).

/** The waits of the seed's schedule: 60, 120, 240 s, then 300 s, the last poll at 45:00. */
export const SEED_WAITS = [60, 120, 240, 300, 300, 300, 300, 300, 300, 300, 180].map((s) => s * 1000);

/**
 * Timers whose every timeout fires after `realMs` of real time, advancing a fake clock (from
 * `startMs`) by its delay; intervals never fire. `state`: { now, waits (each timeout's delay) }.
 */
export function scaledTimers(realMs, startMs) {
  const state = { now: startMs, waits: [] };
  return {
    state,
    now: () => state.now,
    setTimeout(fn, ms) {
      state.waits.push(ms);
      return setTimeout(() => {
        state.now += ms;
        fn();
      }, realMs);
    },
    clearTimeout: (handle) => clearTimeout(handle),
    setInterval: () => 0,
    clearInterval: () => {},
  };
}
