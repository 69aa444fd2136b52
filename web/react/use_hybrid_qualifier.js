// useHybridQualifier: a HybridQualifier for as long as a component is mounted. It is made in an
// effect and disposed in that effect's cleanup, so React's StrictMode (which mounts, unmounts and
// mounts again) makes two and disposes the first before it did anything: it has read no account
// and holds no engine, and no call of it is left to reject.
import { useEffect, useState } from 'react';
import { HybridQualifier } from 'loyalty-qualifier';

/**
 * The component's HybridQualifier, made from the options of the render that mounts it (and again
 * when an entry of `deps` changes, the previous one disposed); null until the first effect ran.
 */
export function useHybridQualifier(options, deps = []) {
  if (!Array.isArray(deps)) throw new TypeError('useHybridQualifier: deps must be an array, as for useEffect');
  const [hybrid, setHybrid] = useState(null);
  useEffect(() => {
    const made = new HybridQualifier(options);
    setHybrid(made);
    return () => {
      made.dispose();
      setHybrid((current) => (current === made ? null : current));
    };
  }, deps);
  return hybrid;
}
