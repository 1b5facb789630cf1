/** An amount in the currency's smallest unit (cents) as people read it: 1499 usd → "$14.99". */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);
}
