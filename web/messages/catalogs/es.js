// Spanish texts of the explain reasons and of describeOffer, in Unicode MessageFormat 2 (the keys
// and arguments of en.js). `many` is CLDR's category for round millions ("1.000.000 de puntos").
export default {
  reasons: {
    NOT_REDEEMABLE: 'La recompensa no está en estado canjeable.',
    NOT_OWNED: 'La recompensa pertenece a otro usuario.',
    OTHER_MERCHANT: 'La recompensa la emitió otro comercio.',
    EXPIRED: 'La recompensa ha caducado.',
    NOT_STARTED: 'La recompensa aún no se puede usar.',
    VENUE_MISMATCH: 'No se puede canjear en este canal (en tienda / en línea).',
    LOCATION_REQUIRED: 'Solo en algunos locales: elija un local.',
    LOCATION_MISMATCH: 'No se puede canjear en este local.',
    OUTSIDE_TIME_WINDOW: 'No disponible a esta hora del día.',
    HANDOFF_REQUIRED: 'Solo para un modo de entrega: elija cómo recibir el pedido.',
    HANDOFF_MISMATCH: 'No disponible para este modo de entrega.',
    SUBTOTAL_REQUIRED: 'Necesita el subtotal de la cesta para comprobar su mínimo.',
    BELOW_MINIMUM: 'Gaste {$remaining :currency currency=$currency} más para desbloquearla.',
    NO_MATCHING_ITEM: 'Ningún artículo de la cesta cumple las condiciones.',
    ITEM_PRICE_MISSING: 'Un artículo que cumple las condiciones no tiene precio.',
    ZERO_DISCOUNT: 'No daría ningún descuento en esta cesta.',
    INSUFFICIENT_POINTS: `.input {$points_needed :integer}
.match $points_needed
one {{Falta {$points_needed} punto.}}
many {{Faltan {$points_needed} de puntos.}}
* {{Faltan {$points_needed} puntos.}}`,
    EMPTY_BASKET: 'La cesta está vacía.',
    UNSUPPORTED_TYPE: 'Este tipo de oferta no se admite.',
    DISCOUNT_UNKNOWN: 'Su descuento no se conoce aquí: el servicio lo decide al confirmar.',
    PENDING_ORDER: 'Ya se usó en un pedido pendiente de confirmación.',
    CLAIMED_ELSEWHERE: 'Ya se usó en otro quiosco.',
  },
  offers: {
    off: '{$value} de descuento en su pedido',
    offItems: '{$value} de descuento en {$items}',
    someItems: 'artículos seleccionados',
    free: '{$items} gratis',
    freeItem: 'Un artículo gratis',
    freeExtra: 'Un extra gratis',
    bogo: '2 × 1 en {$items}',
    bogoAny: 'Compre uno y llévese otro gratis',
    price: 'Cualquier artículo por {$value}',
    priceItems: '{$items} por {$value}',
    other: 'Una recompensa',
    points: `.input {$points :integer}
.match $points
one {{{$points} punto}}
many {{{$points} de puntos}}
* {{{$points} puntos}}`,
    minimum: 'En pedidos de {$minimum} o más',
    maximum: 'Hasta {$maximum}',
  },
};
