// Types of `loyalty-qualifier/messages` (web/messages/messages.js): explain reasons and offers in the guest's language.

/** A language with a catalog: a shipped one, or one given to addCatalog. */
export type SupportedLocale = 'en' | 'es' | 'fr' | 'de' | 'pt-BR' | (string & {});

/** The languages with a catalog: `['en', 'es', 'fr']`, then those given to addCatalog (frozen; a new array after each). */
export declare const supportedLocales: readonly SupportedLocale[];

/** A guest's locale: a BCP 47 tag or tags in order of preference, negotiated as Intl does. */
export type GuestLocale = string | readonly string[];

/** Where the figures are read: the guest's language in the store's region. */
export interface LocaleOptions {
  /**
   * The guest's locale (`'es-MX'` gives Spanish, figures formatted for Mexico; a locale without a
   * catalog gives English). Default: the runtime's default locale.
   */
  locale?: GuestLocale;
  /**
   * The store's region (ISO 3166-1 code, e.g. 'US'): figures are formatted in the guest's language
   * as written in that region (`es` + `US` formats as es-US: "$4.00"), so one sentence never mixes
   * two styles. Default: the guest's own region.
   */
  region?: string;
}

/** One explain reason as `explain()` (or the service) gives it; an `ExplainReason` is one. */
export interface FormattableReason {
  /** The reason code, e.g. 'BELOW_MINIMUM'; a code without a catalog entry gives `message`. */
  code: string;
  /** The engine's English message: the text for a code no catalog knows. */
  message?: string;
  /** BELOW_MINIMUM: what the subtotal lacks, a finite, non-negative number or decimal such as "3.25". */
  remaining?: string | number;
  /** INSUFFICIENT_POINTS: points still needed, a finite, non-negative number or decimal string. */
  points_needed?: number | string;
}

export interface FormatReasonOptions extends LocaleOptions {
  /** ISO 4217 code of the amounts (BELOW_MINIMUM's `remaining`); default 'USD'. */
  currency?: string;
}

/**
 * The text of one explain reason in the best catalog for `options.locale`. Throws a RangeError for
 * a malformed locale, region or currency, a TypeError for a reason without its values (naming the
 * field: a figure must be a finite, non-negative number or decimal string).
 */
export declare function formatReason(reason: FormattableReason, options?: FormatReasonOptions): string;

export interface FormatMessageOptions extends LocaleOptions {}

/**
 * One Unicode MessageFormat 2 message of an application's own catalog (e.g. a page's texts),
 * formatted as formatReason formats its catalogs: the same implementation and functions
 * (`:number`, `:integer`, `:string`, `:currency`), reading only the values' own properties. Throws a
 * SyntaxError for a source that is no message, a TypeError for a missing or unusable value, a
 * RangeError for a malformed locale or region.
 */
export declare function formatMessage(
  source: string,
  values?: Readonly<Record<string, unknown>>,
  options?: FormatMessageOptions,
): string;

/** The fields of a reward or points product record that describeOffer reads (a snapshot's record is one). */
export interface DescribableOffer {
  /** 'amount', 'percent', 'item' or 'fixed_price'; another type is described as "A reward". */
  type: string;
  /** For type 'item': 'free_item' (default), 'bogo' or 'modifier'. */
  item_kind?: string | null;
  /** The amount off, the percent, an item's cap (above 0) or the fixed price. */
  value?: string | number;
  minimum?: string | number | null;
  maximum?: string | number | null;
  products?: readonly string[];
  categories?: readonly string[];
  /** A points product's price in points. */
  points?: number | string | null;
  [field: string]: unknown;
}

export interface DescribeOfferOptions extends LocaleOptions {
  /** ISO 4217 code of the offer's amounts; default 'USD'. */
  currency?: string;
  /** The page's name of a product id (from its menu, in the guest's language); undefined when it has none. */
  productName?: (id: string) => string | undefined;
  /** The page's name of a category id; undefined when it has none. */
  categoryName?: (id: string) => string | undefined;
}

/** An offer in words: a short title and a one-line detail (empty when there is no condition). */
export interface OfferDescription {
  /** e.g. '$5 off your order', 'Free Latte or Cappuccino', '20 % de réduction sur votre commande'. */
  title: string;
  /** e.g. '150 points · On orders of $15 or more · Up to $4'. */
  detail: string;
}

/**
 * A reward or points product described in the guest's language from its own structure (type, value,
 * minimum, maximum, products, categories, points); the merchant's `label` is not read. Throws a
 * TypeError naming a field that is not what a record holds, a RangeError for a malformed locale,
 * region or currency.
 */
export declare function describeOffer(offer: DescribableOffer, options?: DescribeOfferOptions): OfferDescription;

/** The language of the catalog that answers `requested` ('es-MX' -> 'es'; 'de' -> 'en' until a German catalog is added). */
export declare function negotiateLocale(requested?: GuestLocale): SupportedLocale;

/** A catalog in the shipped format: one Unicode MessageFormat 2 message per reason code and per offer text. */
export interface MessageCatalog {
  /** Every reason code of the entry (docs/reference.md, "Messages"). */
  reasons: Readonly<Record<string, string>>;
  /** Every message of describeOffer. */
  offers: Readonly<Record<string, string>>;
}

/**
 * Checks `catalog` against the entry's (every key present and no other, each message compiling and
 * reading exactly its documented arguments) and uses it for `locale`; returns the tag it is known
 * by ('pt-br' -> 'pt-BR'). A TypeError or SyntaxError naming what is wrong otherwise.
 */
export declare function addCatalog(locale: string, catalog: MessageCatalog): string;
