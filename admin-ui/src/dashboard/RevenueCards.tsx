import { Card, CardContent, CircularProgress, Grid, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { useCan } from '../auth/role';
import { ErrorBanner } from '../components/Banners';
import { formatMoney } from '../resources/payments/money';
import type { ConsoleDataProvider } from '../providers/dataProvider';

function RevenueCard({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h2">
          {label}
        </Typography>
        <Typography variant="h4" component="p" data-stat={label}>
          {value}
        </Typography>
        {detail && (
          <Typography variant="body2" color="text.secondary">
            {detail}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** Revenue on the dashboard (admins only, as the Payments page): MRR, packs sold and revenue of the last 30 days. */
export function RevenueCards() {
  const canSee = useCan('payments', 'list');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useQuery({
    queryKey: ['admin-revenue'],
    queryFn: () => dataProvider.getRevenue(),
    retry: 1,
    enabled: canSee,
  });
  if (!canSee) return null;
  if (error) return <ErrorBanner error={error} />;
  if (isPending) return <CircularProgress aria-label="Loading revenue" />;
  const money = (amount: number) => formatMoney(amount, data.currency);
  const plural = (n: number, one: string) => `${n.toLocaleString()} ${one}${n === 1 ? '' : 's'}`;
  const cards = [
    { label: 'Monthly recurring revenue', value: money(data.mrr), detail: plural(data.active_subscriptions, 'active subscription') },
    { label: 'Packs sold (last 30 days)', value: data.packs_sold_30d.toLocaleString(), detail: money(data.pack_revenue_30d) },
    {
      label: 'Revenue (last 30 days)',
      value: money(data.revenue_30d),
      detail: data.refunds_30d ? `${plural(data.refunds_30d, 'refund')}: −${money(data.refunded_amount_30d)}` : 'No refunds',
    },
  ];
  return (
    <Grid container spacing={2} component="section" aria-label="Revenue">
      {cards.map((card) => (
        <Grid key={card.label} size={{ xs: 12, sm: 4 }}>
          <RevenueCard {...card} />
        </Grid>
      ))}
    </Grid>
  );
}
