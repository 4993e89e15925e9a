/** One measured figure with its budget. */
export interface Figure {
  readonly id: string;
  readonly label: string;
  /** The headline value, as shown in the table. */
  readonly value: string;
  readonly budget: string;
  readonly met: boolean;
  /** Spread, samples, comparisons. */
  readonly detail?: string;
  /** The raw numbers behind the value, for the JSON file. */
  readonly data?: unknown;
}
