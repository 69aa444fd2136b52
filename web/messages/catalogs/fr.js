// French texts of the explain reasons and of describeOffer, in Unicode MessageFormat 2 (the keys
// and arguments of en.js). French counts 0 and 1 as `one` ("0 point"); `many` is CLDR's category
// for round millions ("1 000 000 de points"). A no-break space precedes the colon, as French
// typography wants.
export default {
  reasons: {
    NOT_REDEEMABLE: 'La récompense n’est pas dans un état utilisable.',
    NOT_OWNED: 'La récompense appartient à un autre utilisateur.',
    OTHER_MERCHANT: 'La récompense a été émise par un autre commerçant.',
    EXPIRED: 'La récompense a expiré.',
    NOT_STARTED: 'La récompense n’est pas encore utilisable.',
    VENUE_MISMATCH: 'Non utilisable sur ce canal (en magasin / en ligne).',
    LOCATION_REQUIRED: 'Seulement dans certains points de vente\u00a0: choisissez un point de vente.',
    LOCATION_MISMATCH: 'Non utilisable dans ce point de vente.',
    OUTSIDE_TIME_WINDOW: 'Non disponible à cette heure de la journée.',
    HANDOFF_REQUIRED: 'Seulement pour un mode de retrait\u00a0: choisissez un mode de retrait.',
    HANDOFF_MISMATCH: 'Non disponible pour ce mode de retrait.',
    SUBTOTAL_REQUIRED: 'Il faut le sous-total du panier pour vérifier son minimum.',
    BELOW_MINIMUM: 'Dépensez encore {$remaining :currency currency=$currency} pour en profiter.',
    NO_MATCHING_ITEM: 'Aucun article correspondant dans le panier.',
    ITEM_PRICE_MISSING: 'Un article correspondant n’a pas de prix.',
    ZERO_DISCOUNT: 'Elle ne donnerait aucune remise sur ce panier.',
    INSUFFICIENT_POINTS: `.input {$points_needed :integer}
.match $points_needed
one {{Il manque {$points_needed} point.}}
many {{Il manque {$points_needed} de points.}}
* {{Il manque {$points_needed} points.}}`,
    EMPTY_BASKET: 'Le panier est vide.',
    UNSUPPORTED_TYPE: 'Ce type d’offre n’est pas pris en charge.',
    DISCOUNT_UNKNOWN: 'Sa remise n’est pas connue ici\u00a0: le service la fixe à la confirmation.',
    PENDING_ORDER: 'Déjà utilisée par une commande en attente de confirmation.',
    CLAIMED_ELSEWHERE: 'Déjà utilisée sur une autre borne.',
  },
  offers: {
    off: '{$value} de réduction sur votre commande',
    offItems: '{$value} de réduction sur {$items}',
    someItems: 'une sélection d’articles',
    free: 'Offert\u00a0: {$items}',
    freeItem: 'Un article offert',
    freeExtra: 'Un supplément offert',
    bogo: '1 acheté, 1 offert\u00a0: {$items}',
    bogoAny: '1 acheté, 1 offert',
    price: 'Un article au choix à {$value}',
    priceItems: '{$items} à {$value}',
    other: 'Une récompense',
    points: `.input {$points :integer}
.match $points
one {{{$points} point}}
many {{{$points} de points}}
* {{{$points} points}}`,
    minimum: 'Pour une commande de {$minimum} ou plus',
    maximum: 'Jusqu’à {$maximum}',
  },
};
