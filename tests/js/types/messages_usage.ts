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
