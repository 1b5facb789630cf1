import { getCatalog } from '@fitting-room/api-client';
import { callApi } from '@fitting-room/shared/browser';
import { Chip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useRecordContext } from 'react-admin';

/** The tiers and their names come from the catalogue (GET /api/catalog), not from a copy here. */
export function useTierChoices(): { id: string; name: string }[] {
  const { data } = useQuery({
    queryKey: ['catalog'],
    staleTime: Infinity,
    queryFn: async ({ signal }) => (await callApi(getCatalog({ signal }))).data,
  });
  if (!data) return [];
  return data.tiers.map((tier) => ({ id: tier, name: data.plans.find((plan) => plan.id === tier)?.name ?? tier }));
}

export function useTierName(tier: string | undefined): string {
  const choices = useTierChoices();
  return choices.find((choice) => choice.id === tier)?.name ?? tier ?? '';
}

/** A tier as a chip with the plan's name. */
export function TierField(_props: { source?: string; label?: string }) {
  const record = useRecordContext<{ tier?: string }>();
  const name = useTierName(record?.tier);
  if (!record?.tier) return null;
  return <Chip size="small" label={name} variant={record.tier === 'free' ? 'outlined' : 'filled'} />;
}
