// loyalty-qualifier/react: hooks for React >= 18 (an optional peer dependency; the package's main
// entry never imports this one). Types: web/react/react.d.ts; the guide: docs/reference.md#react.
export { useHybridQualifier } from './use_hybrid_qualifier.js';
export { useOffers } from './use_offers.js';
