// German texts of the explain reasons and of describeOffer, in Unicode MessageFormat 2 (the keys
// and arguments of en.js). Not imported by the entry: a page that wants German imports this
// module (`loyalty-qualifier/messages/catalogs/de`) and gives it to addCatalog('de', …).
export default {
  reasons: {
    NOT_REDEEMABLE: 'Die Prämie ist nicht einlösbar.',
    NOT_OWNED: 'Die Prämie gehört einem anderen Nutzer.',
    OTHER_MERCHANT: 'Die Prämie wurde von einem anderen Händler ausgegeben.',
    EXPIRED: 'Die Prämie ist abgelaufen.',
    NOT_STARTED: 'Die Prämie kann noch nicht eingelöst werden.',
    VENUE_MISMATCH: 'Auf diesem Weg nicht einlösbar (im Geschäft / online).',
    LOCATION_REQUIRED: 'Nur in einigen Filialen: Wählen Sie eine Filiale.',
    LOCATION_MISMATCH: 'In dieser Filiale nicht einlösbar.',
    OUTSIDE_TIME_WINDOW: 'Zu dieser Tageszeit nicht verfügbar.',
    HANDOFF_REQUIRED: 'Nur für eine Übergabeart: Wählen Sie, wie Sie Ihre Bestellung erhalten.',
    HANDOFF_MISMATCH: 'Für diese Übergabeart nicht verfügbar.',
    SUBTOTAL_REQUIRED: 'Ohne Zwischensumme des Warenkorbs lässt sich der Mindestbetrag nicht prüfen.',
    BELOW_MINIMUM: 'Noch {$remaining :currency currency=$currency} mehr, um sie freizuschalten.',
    NO_MATCHING_ITEM: 'Kein passender Artikel im Warenkorb.',
    ITEM_PRICE_MISSING: 'Ein passender Artikel hat keinen Preis.',
    ZERO_DISCOUNT: 'Sie ergäbe für diesen Warenkorb keinen Rabatt.',
    INSUFFICIENT_POINTS: `.input {$points_needed :integer}
.match $points_needed
one {{Es fehlt {$points_needed} Punkt.}}
* {{Es fehlen {$points_needed} Punkte.}}`,
    EMPTY_BASKET: 'Der Warenkorb ist leer.',
    UNSUPPORTED_TYPE: 'Diese Art von Angebot wird nicht unterstützt.',
    DISCOUNT_UNKNOWN: 'Der Rabatt ist hier nicht bekannt: Der Dienst legt ihn bei der Bestätigung fest.',
    PENDING_ORDER: 'Bereits für eine Bestellung verwendet, die auf Bestätigung wartet.',
    CLAIMED_ELSEWHERE: 'Bereits an einem anderen Kiosk verwendet.',
  },
  offers: {
    off: '{$value} Rabatt auf Ihre Bestellung',
    offItems: '{$value} Rabatt auf {$items}',
    someItems: 'ausgewählte Artikel',
    free: '{$items} gratis',
    freeItem: 'Ein Artikel gratis',
    freeExtra: 'Ein Extra gratis',
    bogo: '2 für 1: {$items}',
    bogoAny: '2 für 1',
    price: 'Ein Artikel nach Wahl für {$value}',
    priceItems: '{$items} für {$value}',
    other: 'Eine Prämie',
    points: `.input {$points :integer}
.match $points
one {{{$points} Punkt}}
* {{{$points} Punkte}}`,
    minimum: 'Ab {$minimum} Bestellwert',
    maximum: 'Bis zu {$maximum}',
  },
};
