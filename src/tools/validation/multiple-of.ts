/**
 * `multipleOf` in decimal, as a model writes numbers: `0.3` is a multiple of `0.1`, `5` is not a
 * multiple of `1e308`, `1e-11` is not a multiple of `2`. Binary floating point gets the first
 * wrong and a tolerance (`multipleOfPrecision`) gets the other two wrong; exact integers do not.
 */

/** Whether `value / divisor` is an integer, reading both as the decimals they print as. */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !(divisor > 0) || !Number.isFinite(divisor)) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [digits, exponent] = decimal(value);
  const [divisorDigits, divisorExponent] = decimal(divisor);
  // value = digits·10^exponent, divisor = divisorDigits·10^divisorExponent
  const shift = exponent - divisorExponent;
  return shift >= 0
    ? (digits * 10n ** BigInt(shift)) % divisorDigits === 0n
    : digits % (divisorDigits * 10n ** BigInt(-shift)) === 0n;
}

/** `|n|` as integer digits and a power of ten, from its shortest round-trip decimal text. */
function decimal(n: number): [bigint, number] {
  const text = String(Math.abs(n)); // "0.3", "1e+308", "1.5e-7"
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const dot = mantissa.indexOf(".");
  const fraction = dot < 0 ? 0 : mantissa.length - dot - 1;
  const digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  return [BigInt(digits), (e < 0 ? 0 : Number(text.slice(e + 1))) - fraction];
}
