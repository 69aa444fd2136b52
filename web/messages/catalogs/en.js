// English texts of the explain reasons (`reasons`, one message per reason code) and of describeOffer
// (`offers`), in Unicode MessageFormat 2: the reference every other catalog is checked against
// (the same keys, each message reading the same arguments). The engine's own English `message`
// says what `reasons` says, except for the plural it cannot make ("1 more points needed."):
// docs/decisions.md, "The guest's language".
export default {
  reasons: {
    NOT_REDEEMABLE: 'The reward is not in the redeemable state.',
    NOT_OWNED: 'The reward belongs to another user.',
    OTHER_MERCHANT: 'The reward was issued by another merchant.',
    EXPIRED: 'The reward has expired.',
    NOT_STARTED: 'The reward cannot be used yet.',
    VENUE_MISMATCH: 'Not redeemable at this venue (in store / online).',
    LOCATION_REQUIRED: 'Only at some locations: choose a location.',
    LOCATION_MISMATCH: 'Not redeemable at this location.',
    OUTSIDE_TIME_WINDOW: 'Not available at this time of day.',
    HANDOFF_REQUIRED: 'Only for one handoff mode: choose a handoff.',
    HANDOFF_MISMATCH: 'Not available for this handoff mode.',
    SUBTOTAL_REQUIRED: 'Needs a basket subtotal to check its minimum.',
    BELOW_MINIMUM: 'Spend {$remaining :currency currency=$currency} more to unlock.',
    NO_MATCHING_ITEM: 'No matching item in the basket.',
    ITEM_PRICE_MISSING: 'A matching item has no price.',
    ZERO_DISCOUNT: 'It would give no discount on this basket.',
    INSUFFICIENT_POINTS: `.input {$points_needed :integer}
.match $points_needed
one {{{$points_needed} more point needed.}}
* {{{$points_needed} more points needed.}}`,
    EMPTY_BASKET: 'The basket is empty.',
    UNSUPPORTED_TYPE: 'This kind of offer is not supported.',
    DISCOUNT_UNKNOWN: 'Its discount is not known here: the service decides when confirming.',
    PENDING_ORDER: 'Already used by an order waiting to be confirmed.',
    CLAIMED_ELSEWHERE: 'Already used at another kiosk.',
  },
  offers: {
    off: '{$value} off your order',
    offItems: '{$value} off {$items}',
    someItems: 'selected items',
    free: 'Free {$items}',
    freeItem: 'A free item',
    freeExtra: 'A free extra',
    bogo: 'Buy one {$items}, get one free',
    bogoAny: 'Buy one, get one free',
    price: 'Any item for {$value}',
    priceItems: '{$items} for {$value}',
    other: 'A reward',
    points: `.input {$points :integer}
.match $points
one {{{$points} point}}
* {{{$points} points}}`,
    minimum: 'On orders of {$minimum} or more',
    maximum: 'Up to {$maximum}',
  },
};
