// Types of loyalty-qualifier/react (web/react/; docs/reference.md#react). No type of React's own
// is needed: the hooks take and give the package's types.
import type { ExplainResult, Qualifier, QualifyRequest, QualifyResult } from '../engine/engine.js';
import type { HybridQualifier, HybridQualifierOptions, LocalExplainResult, LocalQualifyResult } from '../offline/hybrid/hybrid.js';
import type { WorkerQualifier } from '../worker/worker.js';

/** What useOffers asks: a Qualifier, a worker qualifier or a HybridQualifier. */
export type OfferSource = Qualifier | WorkerQualifier | HybridQualifier;

/**
 * useOffers' state. 'loading': no source yet, or a new answer being computed (the previous
 * answer, if any, stays in result and explanation meanwhile); 'ready': the answer for the basket
 * as it is now (null answers for a null basket); 'error': the source rejected the basket
 * (e.g. a QualifyError 400, or 503 for a snapshot past maxStaleMs).
 */
export type OffersState =
  | {
      status: 'loading' | 'ready';
      result: QualifyResult | LocalQualifyResult | null;
      /** With { explain: true }; else null. */
      explanation: ExplainResult | LocalExplainResult | null;
      error: null;
    }
  | { status: 'error'; result: null; explanation: null; error: unknown };

export interface UseOffersOptions {
  /** Also compute explain() (every offer with its reasons); default false. */
  explain?: boolean;
}

/**
 * The component's HybridQualifier: made in an effect from the options of the render that mounts
 * it (again when an entry of `deps` changes, the previous one disposed), disposed on unmount;
 * null before the first effect. StrictMode's second mount leaves nothing of the first running.
 */
export function useHybridQualifier(options: HybridQualifierOptions, deps?: readonly unknown[]): HybridQualifier | null;

/**
 * The offers of `basket` (an object or JSON text; null for none) from `source` (null while it
 * is not there yet), computed again when the basket's content changes (not its identity) and
 * when the source dispatches 'snapshotchange' (a refresh, the guest's holds, setSnapshot()).
 */
export function useOffers(
  source: OfferSource | null | undefined,
  basket: QualifyRequest | string | null | undefined,
  options?: UseOffersOptions,
): OffersState;
