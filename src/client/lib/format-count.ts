let count: Intl.NumberFormat | undefined;

/**
 * A count in the reader's own digit grouping: "12,000". The formatter is made at the first count shown, not when a
 * page loads this module: a page's first use of the browser's locale data costs 30–110 ms (decision 0053).
 */
export const formatCount = (value: number) => (count ??= new Intl.NumberFormat()).format(value);

/**
 * A whole number grouped as English writes it, as `toLocaleString('en')` does ("12,000"), without the browser's
 * locale data: for the figures of pages that open often and would otherwise be their only use of it.
 */
export const formatEnglishCount = (value: number) => String(Math.trunc(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
