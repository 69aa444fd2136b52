// Brazilian Portuguese texts of the explain reasons and of describeOffer, in Unicode MessageFormat 2
// (the keys and arguments of en.js). Portuguese counts 0 and 1 as `one` ("0 ponto"), as CLDR
// says; `many` is its category for round millions ("1.000.000 de pontos"). Not imported by the
// entry: a page that wants it imports this module (`loyalty-qualifier/messages/catalogs/pt-BR`)
// and gives it to addCatalog('pt-BR', …).
export default {
  reasons: {
    NOT_REDEEMABLE: 'A recompensa não está disponível para resgate.',
    NOT_OWNED: 'A recompensa pertence a outro usuário.',
    OTHER_MERCHANT: 'A recompensa foi emitida por outro estabelecimento.',
    EXPIRED: 'A recompensa expirou.',
    NOT_STARTED: 'A recompensa ainda não pode ser usada.',
    VENUE_MISMATCH: 'Não pode ser resgatada neste canal (na loja / on-line).',
    LOCATION_REQUIRED: 'Só em algumas unidades: escolha uma unidade.',
    LOCATION_MISMATCH: 'Não pode ser resgatada nesta unidade.',
    OUTSIDE_TIME_WINDOW: 'Não disponível neste horário.',
    HANDOFF_REQUIRED: 'Só para uma forma de entrega: escolha como receber o pedido.',
    HANDOFF_MISMATCH: 'Não disponível para esta forma de entrega.',
    SUBTOTAL_REQUIRED: 'É preciso o subtotal do carrinho para verificar o valor mínimo.',
    BELOW_MINIMUM: 'Gaste mais {$remaining :currency currency=$currency} para liberar.',
    NO_MATCHING_ITEM: 'Nenhum item do carrinho se qualifica.',
    ITEM_PRICE_MISSING: 'Um item que se qualifica não tem preço.',
    ZERO_DISCOUNT: 'Não daria nenhum desconto neste carrinho.',
    INSUFFICIENT_POINTS: `.input {$points_needed :integer}
.match $points_needed
one {{Falta {$points_needed} ponto.}}
many {{Faltam {$points_needed} de pontos.}}
* {{Faltam {$points_needed} pontos.}}`,
    EMPTY_BASKET: 'O carrinho está vazio.',
    UNSUPPORTED_TYPE: 'Este tipo de oferta não é aceito.',
    DISCOUNT_UNKNOWN: 'O desconto não é conhecido aqui: o serviço decide ao confirmar.',
    PENDING_ORDER: 'Já usada em um pedido aguardando confirmação.',
    CLAIMED_ELSEWHERE: 'Já usada em outro quiosque.',
  },
  offers: {
    off: '{$value} de desconto no seu pedido',
    offItems: '{$value} de desconto em {$items}',
    someItems: 'itens selecionados',
    free: '{$items} grátis',
    freeItem: 'Um item grátis',
    freeExtra: 'Um adicional grátis',
    bogo: 'Compre 1, leve 2: {$items}',
    bogoAny: 'Compre 1, leve 2',
    price: 'Qualquer item por {$value}',
    priceItems: '{$items} por {$value}',
    other: 'Uma recompensa',
    points: `.input {$points :integer}
.match $points
one {{{$points} ponto}}
many {{{$points} de pontos}}
* {{{$points} pontos}}`,
    minimum: 'Em pedidos a partir de {$minimum}',
    maximum: 'Até {$maximum}',
  },
};
