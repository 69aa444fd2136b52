// Types of cancellation and disposal (web/lifecycle/; docs/reference.md#cancellation-and-disposal).

declare global {
  // The keys of `using` and `await using` (TypeScript 5.2's lib esnext.disposable and @types/node
  // declare them alike), so that the types compile with lib ES2022 alone. Where the platform has
  // no Symbol.dispose, the package uses Symbol.for('Symbol.dispose') (Babel's fallback).
  interface SymbolConstructor {
    readonly dispose: unique symbol;
    readonly asyncDispose: unique symbol;
  }
}

/**
 * The options every call of a HybridQualifier (and qualify, explain and offerOutcome of a worker
 * qualifier) takes. An aborted `signal` rejects the call at once with its reason (a DOMException
 * named 'AbortError' unless abort() was given another); what the call already did stays done.
 */
export interface CallOptions {
  signal?: AbortSignal;
}
