/**
 * The order reference of a payment row, as Payment Successful and the receipt mail show it: "RP-"
 * and the first 8 hex digits of the row's id, upper-case. Short enough to read out on the phone;
 * the full id stays the key (support looks a reference up by prefix).
 */
export function orderReference(paymentId: string): string {
  return `RP-${paymentId.replaceAll('-', '').slice(0, 8).toUpperCase()}`;
}
