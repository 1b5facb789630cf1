import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** A date and time of the API (ISO), as the admin's browser writes them. */
export const when = (iso: string) => new Date(iso).toLocaleString();

/** A figure of a user's page: its name small, its value large. */
export function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="h6" component="div" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}
