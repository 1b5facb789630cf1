import { Card, CardContent, CardHeader, Chip, CircularProgress, Grid, Stack, Typography, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useDataProvider } from 'react-admin';
import { useCan } from '../auth/role';
import { ErrorBanner } from '../components/Banners';
import type { ConsoleDataProvider } from '../providers/dataProvider';

const COUNTS = ['waiting', 'active', 'delayed', 'failed'] as const;

/** The job queue at a glance (GET /api/admin/queues): driver, health, heartbeat, job counts. */
function QueueOverviewPage() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending, refetch, isFetching } = useQuery({
    queryKey: ['admin-queues'],
    queryFn: () => dataProvider.getQueues(),
    retry: 1,
  });

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title="Queues" />
      <ErrorBanner error={error} />
      <Card variant="outlined">
        <CardHeader
          title={data ? `Driver: ${data.driver}` : 'Queue'}
          slotProps={{ title: { variant: 'subtitle1', component: 'h2' } }}
          action={
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              {data && <Chip size="small" label={data.healthy ? 'Healthy' : 'Unhealthy'} color={data.healthy ? 'success' : 'error'} />}
              <Button onClick={() => void refetch()} disabled={isFetching}>
                Refresh
              </Button>
              {data?.board_url && <OpenBoardButton url={data.board_url} />}
            </Stack>
          }
        />
        <CardContent>
          {isPending && !error ? (
            <CircularProgress aria-label="Loading queues" />
          ) : data ? (
            <Stack spacing={2}>
              <Grid container spacing={2}>
                {COUNTS.map((c) => (
                  <Grid key={c} size={{ xs: 6, sm: 3 }}>
                    <Typography variant="body2" color="text.secondary" sx={{ textTransform: 'capitalize' }}>
                      {c}
                    </Typography>
                    <Typography
                      variant="h5"
                      component="p"
                      color={c === 'failed' && data.counts[c] ? 'error.main' : undefined}
                      data-stat={`queue ${c}`}
                    >
                      {data.counts[c] ?? 0}
                    </Typography>
                  </Grid>
                ))}
              </Grid>
              <Typography variant="body2" color="text.secondary">
                Generations running: {data.running_generations}
                {data.last_heartbeat_at && ` · last worker heartbeat ${new Date(data.last_heartbeat_at).toLocaleString()}`}
                {data.detail && ` · ${data.detail}`}
              </Typography>
            </Stack>
          ) : null}
        </CardContent>
      </Card>
    </Stack>
  );
}

/**
 * Bull Board (BullMQ only) in a new tab. A tab opened by a link carries no bearer token, so the
 * button first asks the API for the board's short-lived cookie. The tab is opened at once (a popup
 * blocker lets a click open one, not a later callback) and sent to the board once the cookie is set.
 */
function OpenBoardButton({ url }: { url: string }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        disabled={busy}
        onClick={async () => {
          const tab = window.open('about:blank', '_blank');
          setBusy(true);
          setError(null);
          try {
            await dataProvider.openQueueBoardSession();
            if (tab) {
              tab.opener = null;
              tab.location.href = url;
            } else {
              window.location.assign(url);
            }
          } catch (e) {
            tab?.close();
            setError(e);
          } finally {
            setBusy(false);
          }
        }}
      >
        Open Bull Board
      </Button>
      {error ? <ErrorBanner error={error} /> : null}
    </>
  );
}

/** Admin only (the access policy's `queues`): others see the denial, like any refused resource. */
export function QueuesPage() {
  const allowed = useCan('queues', 'list');
  if (!allowed) return <ErrorBanner error={new Error('Access denied. Admin privileges required.')} />;
  return <QueueOverviewPage />;
}
