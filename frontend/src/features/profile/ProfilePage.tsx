import { Button, Card, Input, SimpleGrid, Stack, Stat } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { FormField } from '../../components/FormField';
import { PageSpinner } from '../../components/PageSpinner';
import { notify } from '../../components/toaster';
import { DashboardPageHeader } from '../dashboard/DashboardPageHeader';
import { LoadFailed } from '../dashboard/LoadFailed';
import { meQueryOptions, useUpdateProfile } from './profile-queries';
import { tierLabel } from './tier-label';
import type { ProfileResponseDto } from '@fitting-room/api-client';

function PlanSummary({ profile }: { profile: ProfileResponseDto }) {
  return (
    <SimpleGrid columns={2} gap={{ base: '3', md: '4' }}>
      <Card.Root>
        <Card.Body>
          <Stat.Root>
            <Stat.Label>Current tier</Stat.Label>
            <Stat.ValueText fontFamily="heading" fontWeight="medium">
              {tierLabel(profile.tier)}
            </Stat.ValueText>
          </Stat.Root>
        </Card.Body>
      </Card.Root>
      <Card.Root>
        <Card.Body>
          <Stat.Root>
            <Stat.Label>Available credits</Stat.Label>
            <Stat.ValueText fontFamily="heading" fontWeight="medium">
              {profile.credits}
            </Stat.ValueText>
          </Stat.Root>
        </Card.Body>
      </Card.Root>
    </SimpleGrid>
  );
}

/** Full Name (editable) and Email (read-only), saved with Save Changes. */
function ProfileForm({ profile }: { profile: ProfileResponseDto }) {
  const [fullName, setFullName] = useState(profile.full_name);
  const update = useUpdateProfile();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { full_name: fullName },
      {
        onSuccess: (saved) => {
          setFullName(saved.full_name);
          notify.success({ title: 'Profile updated successfully' });
        },
        onError: () => notify.error({ title: 'Failed to update profile' }),
      },
    );
  };

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">Personal information</Card.Title>
      </Card.Header>
      <Card.Body asChild>
        <form onSubmit={submit}>
          <Stack gap="5" maxW="lg">
            <FormField label="Full Name">
              <Input
                name="full_name"
                autoComplete="name"
                value={fullName}
                onChange={(event) => setFullName(event.target.value)}
                bg="bg.panel"
              />
            </FormField>
            <FormField label="Email" readOnly helperText="Email cannot be changed from this page">
              <Input name="email" type="email" value={profile.email} readOnly bg="bg.subtle" color="fg.muted" />
            </FormField>
            <div>
              <Button type="submit" loading={update.isPending} loadingText="Saving...">
                Save Changes
              </Button>
            </div>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

/** Profile (docs/product.md): tier and credits, the editable full name and the read-only email. */
export function ProfilePage() {
  useDocumentTitle('Profile');
  const { data: profile, isError, isPending, refetch } = useQuery(meQueryOptions);

  useEffect(() => {
    if (isError) notify.error({ title: 'Failed to load profile data' });
  }, [isError]);

  return (
    <>
      <DashboardPageHeader title="Profile" description="Your plan and your personal details." />
      {isPending ? (
        <PageSpinner label="Loading your profile" />
      ) : isError ? (
        <LoadFailed message="Failed to load profile data" onRetry={() => void refetch()} />
      ) : (
        <Stack gap="6">
          <PlanSummary profile={profile} />
          <ProfileForm profile={profile} />
        </Stack>
      )}
    </>
  );
}
