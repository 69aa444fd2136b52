// Type-level use of `loyalty-qualifier/messages` (web/messages/messages.d.ts), checked by `npm test`.
import type { ExplainReason } from 'loyalty-qualifier';
import {
  formatReason,
  supportedLocales,
  type FormatReasonOptions,
  type FormattableReason,
  type SupportedLocale,
} from 'loyalty-qualifier/messages';

declare const fromExplain: ExplainReason;
const english: string = formatReason(fromExplain);
const options: FormatReasonOptions = { locale: ['es-MX', 'en'], currency: 'MXN' };
const spanish: string = formatReason(fromExplain, options);
const byHand: FormattableReason = { code: 'INSUFFICIENT_POINTS', message: '1 more points needed.', points_needed: 1 };
const french: string = formatReason(byHand, { locale: 'fr-CA' });
const first: SupportedLocale | undefined = supportedLocales[0];
console.log(english, spanish, french, first);

// @ts-expect-error a locale is a tag or tags, not a number
formatReason(byHand, { locale: 42 });
// @ts-expect-error supportedLocales is read-only
supportedLocales.push('de');
// @ts-expect-error a reason has a code
formatReason({ message: 'no code' });

// formatMessage: an application's own MessageFormat 2 message, formatted as the reasons are.
import { formatMessage } from 'loyalty-qualifier/messages';
const pageText: string = formatMessage('{$count :integer} offers', { count: 2 }, { locale: 'es-MX' });
const plainText: string = formatMessage('Hello');
void pageText;
void plainText;
// @ts-expect-error the source is a string
formatMessage(42);

// The guest's language as the store writes it, offers described, languages added as data (issue 39).
import {
  addCatalog,
  describeOffer,
  negotiateLocale,
  type DescribeOfferOptions,
  type MessageCatalog,
  type OfferDescription,
} from 'loyalty-qualifier/messages';
import german from 'loyalty-qualifier/messages/catalogs/de';
import portuguese from 'loyalty-qualifier/messages/catalogs/pt-BR';

const added: string = addCatalog('de', german);
const catalog: MessageCatalog = portuguese;
addCatalog('pt-BR', catalog);
const used = negotiateLocale(['pt-PT', 'en']);
const inUs: string = formatReason(byHand, { locale: 'es', region: 'US', currency: 'USD' });
const pageInUs: string = formatMessage('{$n :integer}', { n: 2 }, { locale: 'es', region: 'US' });
const names: DescribeOfferOptions = { locale: 'de', region: 'US', currency: 'EUR', productName: (id) => (id === 'latte' ? 'Milchkaffee' : undefined) };
const described: OfferDescription = describeOffer({ type: 'item', item_kind: 'free_item', value: 6, products: ['latte'] }, names);
const fromSnapshot: OfferDescription = describeOffer({ type: 'amount', value: '5.00', minimum: '15.00', maximum: null, label: 'x', points: 150 });
console.log(added, used, inUs, pageInUs, described.title, described.detail, fromSnapshot.title);
// @ts-expect-error an offer has a type
describeOffer({ value: 5 });
// @ts-expect-error productName names an id
describeOffer({ type: 'amount', value: 5 }, { productName: 'Latte' });
// @ts-expect-error a catalog has reasons and offers
addCatalog('it', { reasons: {} });
