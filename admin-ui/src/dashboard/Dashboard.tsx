import { Card, CardContent, CardHeader, Chip, CircularProgress, Grid, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Title, useCreatePath, useDataProvider } from 'react-admin';
import { Navigate } from 'react-router-dom';
import { useCan } from '../auth/role';
import { ErrorBanner } from '../components/Banners';
import { useTierChoices } from '../resources/users/tiers';
import { RevenueCards } from './RevenueCards';
import { useApiHealth } from './useApiHealth';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import type { AdminStatsDto as AdminStats } from '@fitting-room/api-client';

const DashboardCharts = lazy(() => import('./Charts'));

function ApiStatusCard() {
  const { data, isPending, isError, error } = useApiHealth();
  const ok = data?.status === 'ok';
  const checks = Object.entries(data?.details ?? {});

  return (
    <Card variant="outlined">
      <CardHeader
        title="API status"
        slotProps={{ title: { variant: 'subtitle1', component: 'h2' } }}
        action={
          isPending ? (
            <Chip label="Checking…" size="small" />
          ) : (
            <Chip label={ok ? 'Operational' : 'Service degraded'} color={ok ? 'success' : 'warning'} size="small" />
          )
        }
      />
      <CardContent>
        {isError ? (
          <Typography color="text.secondary">{error.message}</Typography>
        ) : checks.length > 0 ? (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
            {checks.map(([name, check]) => (
              <Chip
                key={name}
                label={`${name}: ${check.status}`}
                variant="outlined"
                color={check.status === 'up' ? 'success' : 'warning'}
              />
            ))}
          </Stack>
        ) : null}
      </CardContent>
    </Card>
  );
}

function StatCard({ label, value, tone }: { label: string; value: string | number; tone?: 'error' | 'success' | 'warning' }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" component="h2">
          {label}
        </Typography>
        <Typography variant="h4" component="p" color={tone ? `${tone}.main` : undefined} data-stat={label}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

const number = (n: number) => n.toLocaleString();

/** Every dashboard statistic of the spec (section 3) as a card. */
function StatCards({ stats, tiers }: { stats: AdminStats; tiers: { id: string; name: string }[] }) {
  const cards: { label: string; value: string; tone?: 'error' | 'success' | 'warning' }[] = [
    { label: 'Total users', value: number(stats.total_users) },
    { label: 'New users today', value: number(stats.new_users_today) },
    { label: 'Generations', value: number(stats.total_generations) },
    { label: 'Successful', value: number(stats.successful_generations), tone: 'success' },
    { label: 'Failed', value: number(stats.failed_generations), tone: stats.failed_generations ? 'error' : undefined },
    // stopped by the person: not a failure, and not in the success rate (docs/console.md)
    { label: 'Cancelled', value: number(stats.cancelled_generations) },
    { label: 'Success rate', value: `${stats.success_rate}%` },
    { label: 'Credits used', value: number(stats.total_credits_used) },
    { label: 'Credits in the system', value: number(stats.total_credits_in_system) },
    { label: 'Open tickets', value: number(stats.support_tickets_open), tone: stats.support_tickets_open ? 'warning' : undefined },
    { label: 'Unread notifications', value: number(stats.unread_notifications), tone: stats.unread_notifications ? 'warning' : undefined },
  ];
  const distribution: Record<string, number> = { ...stats.tier_distribution };
  const tierIds = tiers.length ? tiers.map((t) => t.id) : Object.keys(distribution);
  return (
    <Grid container spacing={2}>
      {cards.map((card) => (
        <Grid key={card.label} size={{ xs: 6, sm: 4, md: 3, lg: 2.4 }}>
          <StatCard {...card} />
        </Grid>
      ))}
      {tierIds.map((id) => (
        <Grid key={id} size={{ xs: 6, sm: 3 }}>
          <StatCard label={`Tier: ${tiers.find((t) => t.id === id)?.name ?? id}`} value={number(distribution[id] ?? 0)} />
        </Grid>
      ))}
    </Grid>
  );
}

function Analytics() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const tiers = useTierChoices();
  const { data: stats, error, isPending } = useQuery({ queryKey: ['admin-stats'], queryFn: () => dataProvider.getStats(), retry: 1 });
  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title="Analytics" />
      <ErrorBanner error={error} />
      {isPending && !error && <CircularProgress aria-label="Loading statistics" />}
      <RevenueCards />
      {stats && (
        <>
          <StatCards stats={stats} tiers={tiers} />
          <Suspense fallback={<CircularProgress aria-label="Loading charts" />}>
            <DashboardCharts stats={stats} tiers={tiers} />
          </Suspense>
        </>
      )}
      <ApiStatusCard />
    </Stack>
  );
}

/** The console's home: the platform statistics for admins; support staff go to their tickets. */
export function Dashboard() {
  const canSeeStats = useCan('dashboard', 'list');
  const createPath = useCreatePath();
  if (!canSeeStats) return <Navigate to={createPath({ resource: 'support-inquiries', type: 'list' })} replace />;
  return <Analytics />;
}
