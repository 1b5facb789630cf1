import { Card, CardContent, CardHeader, Chip, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useApiHealth } from './useApiHealth';

function ApiStatusCard() {
  const { data, isPending, isError, error } = useApiHealth();
  const ok = data?.status === 'ok';
  const checks = Object.entries(data?.details ?? {});

  return (
    <Card>
      <CardHeader
        title="API status"
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

/** The console's home. Later issues add the platform statistics of the spec here. */
export function Dashboard() {
  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title="Console" />
      <Typography variant="h4" component="h1">
        Console
      </Typography>
      <ApiStatusCard />
    </Stack>
  );
}
