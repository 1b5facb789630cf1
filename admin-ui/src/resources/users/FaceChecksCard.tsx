import {
  Box,
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
import type { AdminFaceChecksDto } from '@fitting-room/api-client';

const KINDS: Record<string, string> = { selfie: 'Live selfie', photo: 'Photo against the verified face' };

/** What each outcome means, in words an admin reads at a glance. */
export const FACE_OUTCOMES: Record<string, string> = {
  verified: 'Verified',
  mismatch: 'Another person',
  still: 'A still picture (no head turn)',
  no_face: 'No face found',
  several_faces: 'More than one face',
};

/**
 * "Only you" for this account: whether a live selfie verified the face, and the latest face checks
 * with their outcome and distance. No picture and no descriptor: the console never sees a face.
 */
export function FaceChecksCard({ checks }: { checks: AdminFaceChecksDto }) {
  return (
    <Card variant="outlined">
      <CardHeader title="Face checks" slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent>
        <Stack direction="row" spacing={4} useFlexGap sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'flex-end' }}>
          <Box>
            <Typography variant="caption" color="text.secondary" component="div">
              Live selfie
            </Typography>
            {checks.verified_at ? (
              <Chip size="small" color="success" label={`Verified ${when(checks.verified_at)}`} data-testid="user-face-verified" />
            ) : (
              <Chip size="small" label="Not verified" data-testid="user-face-verified" />
            )}
          </Box>
          <Figure label="Refused" value={checks.refused} testId="user-face-refused" />
          <Figure label="Last 24 hours" value={checks.refused_24h} />
        </Stack>
        {checks.recent.length ? (
          <TableContainer tabIndex={0} role="region" aria-label="Recent face checks, scrollable">
            <Table size="small" aria-label="Recent face checks">
              <TableHead>
                <TableRow>
                  <TableCell>When</TableCell>
                  <TableCell>Check</TableCell>
                  <TableCell>Outcome</TableCell>
                  <TableCell align="right">Distance</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {checks.recent.map((check) => (
                  <TableRow key={check.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(check.created_at)}</TableCell>
                    <TableCell>{KINDS[check.kind] ?? check.kind}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        variant={check.outcome === 'verified' ? 'filled' : 'outlined'}
                        color={check.outcome === 'verified' ? 'success' : 'warning'}
                        label={FACE_OUTCOMES[check.outcome] ?? check.outcome}
                      />
                    </TableCell>
                    <TableCell align="right">{check.distance === null ? '—' : check.distance.toFixed(3)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : (
          <Typography color="text.secondary">No face checks yet.</Typography>
        )}
      </CardContent>
    </Card>
  );
}
