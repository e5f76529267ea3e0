/**
 * How a long-running process ends: SIGINT (Ctrl-C) or SIGTERM (docker stop, the tests) runs
 * its graceful stop once, then exits 0. A second signal while stopping changes nothing, so
 * an impatient Ctrl-C cannot cut the drain short.
 */
export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    void stop(signal).then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
