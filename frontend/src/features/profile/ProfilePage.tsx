import { Button, Card, Input, SimpleGrid, Stack, Stat } from '@chakra-ui/react';
import { fullNameProblem } from '@fitting-room/shared';
import { ApiError } from '@fitting-room/shared/browser';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
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

/**
 * Full Name (editable) and Email (read-only), saved with Save Changes. The name is checked here by
 * the shared rule (required, at most FULL_NAME_MAX_LENGTH characters) and again by the API, whose
 * refusal shows under the field as well.
 */
function ProfileForm({ profile }: { profile: ProfileResponseDto }) {
  const [fullName, setFullName] = useState(profile.full_name);
  const [nameError, setNameError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const update = useUpdateProfile();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = fullNameProblem(fullName);
    setNameError(problem);
    if (problem) {
      nameRef.current?.focus();
      return;
    }
    update.mutate(
      { full_name: fullName.trim() },
      {
        onSuccess: (saved) => {
          setFullName(saved.full_name);
          notify.success({ title: 'Profile updated successfully' });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') {
            setNameError(error.message);
            nameRef.current?.focus();
          }
          notify.error({ title: 'Failed to update profile' });
        },
      },
    );
  };

  return (
    <Card.Root>
      <Card.Header>
        <Card.Title as="h2">Personal information</Card.Title>
      </Card.Header>
      <Card.Body asChild>
        <form onSubmit={submit} noValidate>
          <Stack gap="5" maxW="lg">
            <FormField label="Full Name" required error={nameError ?? undefined}>
              <Input
                ref={nameRef}
                name="full_name"
                autoComplete="name"
                value={fullName}
                onChange={(event) => {
                  setFullName(event.target.value);
                  if (nameError) setNameError(fullNameProblem(event.target.value));
                }}
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
