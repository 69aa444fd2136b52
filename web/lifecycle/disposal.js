// The keys of `using` and `await using` (explicit resource management): the platform's
// Symbol.dispose and Symbol.asyncDispose (Node 20 and recent browsers have both), else the
// registered symbols Babel's and TypeScript's helpers fall back to, so that a page compiled
// for an older browser disposes these objects as well.

/** Symbol.dispose, or Symbol.for('Symbol.dispose') where the platform has none. */
export const DISPOSE = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : Symbol.for('Symbol.dispose');

/** Symbol.asyncDispose, or Symbol.for('Symbol.asyncDispose') where the platform has none. */
export const ASYNC_DISPOSE = typeof Symbol.asyncDispose === 'symbol' ? Symbol.asyncDispose : Symbol.for('Symbol.asyncDispose');
