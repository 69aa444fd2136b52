// useOffers: the offers of a basket, from a Qualifier, a worker qualifier or a HybridQualifier,
// computed again when the basket's content changes (not its identity: the basket is keyed by its
// JSON text) and when the source says that what it answers from changed ('snapshotchange': a
// refresh, the guest's holds, setSnapshot). A computation that is overtaken (a new basket, a new
// source, an unmount) is aborted through its { signal } and its answer dropped.
import { useEffect, useState } from 'react';

const LOADING = Object.freeze({ status: 'loading', result: null, explanation: null, error: null });
const NO_BASKET = Object.freeze({ status: 'ready', result: null, explanation: null, error: null });

const contentOf = (basket) => (basket === null || basket === undefined ? null : typeof basket === 'string' ? basket : JSON.stringify(basket));

/**
 * { status: 'loading' | 'ready' | 'error', result, explanation, error } for `basket` (an object or
 * JSON text; null: nothing to ask, 'ready' with null answers) from `source` (null: 'loading').
 * While a new answer is computed, status is 'loading' and the previous answer stays.
 */
export function useOffers(source, basket, { explain = false } = {}) {
  const content = contentOf(basket);
  const [version, setVersion] = useState(0);
  const [state, setState] = useState(LOADING);
  useEffect(() => {
    if (typeof source?.addEventListener !== 'function') return undefined;
    const changed = () => setVersion((v) => v + 1);
    source.addEventListener('snapshotchange', changed);
    return () => source.removeEventListener('snapshotchange', changed);
  }, [source]);
  useEffect(() => {
    if (source === null || source === undefined) {
      setState(LOADING);
      return undefined;
    }
    if (content === null) {
      setState(NO_BASKET);
      return undefined;
    }
    const controller = new AbortController();
    const { signal } = controller;
    const ask = async (method) => source[method](content, { signal });
    setState((s) => (s.status === 'loading' ? s : { ...s, status: 'loading', error: null }));
    Promise.all([ask('qualify'), explain ? ask('explain') : null]).then(
      ([result, explanation]) => signal.aborted || setState({ status: 'ready', result, explanation, error: null }),
      (error) => {
        if (signal.aborted) return;
        // Disposed under this component (its owner unmounting): no answer, and not the basket's error.
        setState(error?.name === 'DisposedError' ? LOADING : { status: 'error', result: null, explanation: null, error });
      },
    );
    return () => controller.abort();
  }, [source, content, explain, version]);
  return state;
}
