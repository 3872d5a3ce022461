/** One measured entry or browser bundle of `measureSizes`. */
export interface SizeRow {
  entry: string;
  file: string;
  budget: number;
  source: "dist" | "src";
  min: number;
  gzip: number;
  added?: number;
  forbidden?: string[];
  ok: boolean;
}

/** One feature's increment over the bundle it names. */
export interface FeatureRow {
  feature: string;
  over: string;
  budget: number;
  source: "dist" | "src";
  min: number;
  gzip: number;
  added: number;
  ok: boolean;
}

export interface Sizes {
  rows: SizeRow[];
  features: FeatureRow[];
  notes: string[];
  over: Array<SizeRow | FeatureRow>;
  errors: string[];
}

export function measureSizes(options?: { allFromSrc?: boolean }): Promise<Sizes>;
export function sizeTable(sizes: Pick<Sizes, "rows" | "features">): string;
export function withSizeTable(page: string, table: string): string;
export const SIZES_START: string;
export const SIZES_END: string;
export const SIZES_PAGE: string;
