import { useEffect, useState } from 'react';

const TICK_MS = 200;
const CAP_PERCENT = 90;

/**
 * A time-based estimate for work whose real progress the server does not report: it climbs towards 90%
 * over about `expectedMs` and slows down near the cap, and starts again from 0 with new work. Callers show
 * it only while the work runs and label it as an estimate.
 */
export function useEstimatedProgress(active: boolean, expectedMs: number): number {
  const [percent, setPercent] = useState(0);
  useEffect(() => {
    setPercent(0);
    if (!active) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const elapsed = Date.now() - started;
      // 1 - e^(-t/T): about 63% of the cap at the expected time, never reaching it.
      setPercent(CAP_PERCENT * (1 - Math.exp(-elapsed / expectedMs)));
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [active, expectedMs]);
  return percent;
}
