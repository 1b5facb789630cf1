import {
  Alert,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Figure, when } from './figures';
import type { AdminRefusalsDto } from '@fitting-room/api-client';

/** A safety category as words: `self_harm` reads "self harm". */
export const categoryLabel = (reason: string) => reason.replace(/_/g, ' ');

const SOURCES: Record<string, string> = { check: 'Check before upload', start: 'Generate' };

/**
 * The custom poses the safety rules refused for this account: the counts, the 24-hour pause after
 * too many, and the latest 20 with their categories. The texts come from the API to admins only
 * (and are cleared after 30 days); anyone else sees a dash.
 */
export function RefusalsCard({ refusals }: { refusals: AdminRefusalsDto }) {
  const paused = refusals.paused_until && new Date(refusals.paused_until).getTime() > Date.now();
  return (
    <Card variant="outlined">
      <CardHeader title="Refused custom poses" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent>
        <Stack direction="row" spacing={4} sx={{ mb: 2 }}>
          <Figure label="Total" value={refusals.total} testId="user-refusals-total" />
          <Figure label="Last 24 hours" value={refusals.last_24h} />
        </Stack>
        {paused && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            Custom poses are paused for this account until {when(refusals.paused_until!)} (too many refusals).
          </Alert>
        )}
        {refusals.recent.length ? (
          <>
            <TableContainer tabIndex={0} role="region" aria-label="Recent refusals, scrollable">
              <Table size="small" aria-label="Recent refusals">
                <TableHead>
                  <TableRow>
                    <TableCell>When</TableCell>
                    <TableCell>Category</TableCell>
                    <TableCell>Where</TableCell>
                    <TableCell>Text</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {refusals.recent.map((refusal) => (
                    <TableRow key={refusal.id}>
                      <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(refusal.created_at)}</TableCell>
                      <TableCell>
                        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                          {refusal.reasons.map((reason) => (
                            <Chip key={reason} size="small" label={categoryLabel(reason)} />
                          ))}
                        </Stack>
                      </TableCell>
                      <TableCell>{SOURCES[refusal.source] ?? refusal.source}</TableCell>
                      <TableCell sx={{ wordBreak: 'break-word' }}>{refusal.text ?? '—'}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
              {refusals.total > refusals.recent.length ? `The latest ${refusals.recent.length} of ${refusals.total}. ` : ''}Texts are shown
              to admins only and kept 30 days.
            </Typography>
          </>
        ) : (
          <Typography color="text.secondary">No refused custom poses.</Typography>
        )}
      </CardContent>
    </Card>
  );
}
