const count = new Intl.NumberFormat();

/** A count in the reader's own digit grouping: "12,000". */
export const formatCount = (value: number) => count.format(value);
