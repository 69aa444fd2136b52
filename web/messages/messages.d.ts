// Types of `loyalty-qualifier/messages` (web/messages/messages.js): explain reasons in the guest's language.

/** A language with a catalog. */
export type SupportedLocale = 'en' | 'es' | 'fr';

/** The shipped languages: `['en', 'es', 'fr']`. */
export declare const supportedLocales: readonly SupportedLocale[];

/** One explain reason as `explain()` (or the service) gives it; an `ExplainReason` is one. */
export interface FormattableReason {
  /** The reason code, e.g. 'BELOW_MINIMUM'; a code without a catalog entry gives `message`. */
  code: string;
  /** The engine's English message: the text for a code no catalog knows. */
  message?: string;
  /** BELOW_MINIMUM: what the subtotal lacks, a decimal such as "3.25". */
  remaining?: string | number;
  /** INSUFFICIENT_POINTS: points still needed. */
  points_needed?: number;
  [field: string]: unknown;
}

export interface FormatReasonOptions {
  /**
   * The guest's locale: a BCP 47 tag or tags in order of preference, negotiated as Intl does
   * (`'es-MX'` gives Spanish, figures formatted for Mexico; an unsupported locale gives English).
   * Default: the runtime's default locale.
   */
  locale?: string | readonly string[];
  /** ISO 4217 code of the amounts (BELOW_MINIMUM's `remaining`); default 'USD'. */
  currency?: string;
}

/**
 * The text of one explain reason in the best shipped match of `options.locale`. Throws a
 * RangeError for a malformed locale or currency, a TypeError for a reason without its values.
 */
export declare function formatReason(reason: FormattableReason, options?: FormatReasonOptions): string;

export interface FormatMessageOptions {
  /** The locale of plural rules and figures, negotiated as for formatReason (`'es-MX'` reads Spanish figures for Mexico). */
  locale?: string | readonly string[];
}

/**
 * One Unicode MessageFormat 2 message of an application's own catalog (e.g. a page's texts),
 * formatted as formatReason formats its catalogs: the same implementation and functions
 * (`:number`, `:integer`, `:string`, `:currency`). Throws a SyntaxError for a source that is no
 * message, a TypeError for a missing or unusable value, a RangeError for a malformed locale.
 */
export declare function formatMessage(
  source: string,
  values?: Readonly<Record<string, unknown>>,
  options?: FormatMessageOptions,
): string;
