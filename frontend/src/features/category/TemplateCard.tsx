import { Badge, Box, Button, chakra, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../app/paths';
import { CheckIcon, LockIcon } from '../../components/icons';
import { CatalogPicture } from '../catalog/CatalogPicture';
import type { CatalogTemplateDto } from '@fitting-room/api-client';

interface TemplateCardProps {
  template: CatalogTemplateDto;
  /** The required tier's short name ("Glow Up"). */
  tierName: string;
  selected: boolean;
  /** Selects an allowed template; opens the upgrade dialog for a locked one. */
  onChoose(template: CatalogTemplateDto): void;
}

/**
 * A template of "Choose a Template". Allowed: a toggle button, highlighted when selected.
 * Locked: greyed, "Locked", the "Tier+" badge, "Requires: Tier" and "Unlock Now" (to /pricing).
 */
export function TemplateCard({ template, tierName, selected, onChoose }: TemplateCardProps) {
  const { locked } = template;
  return (
    <Box
      position="relative"
      h="full"
      display="flex"
      flexDirection="column"
      bg="bg.panel"
      borderWidth="1px"
      borderColor={selected ? 'brand.solid' : 'border'}
      borderRadius="xl"
      boxShadow={selected ? '0 0 0 2px var(--chakra-colors-brand-solid)' : 'xs'}
      overflow="hidden"
      transition="box-shadow 0.15s, border-color 0.15s, transform 0.15s"
      _hover={locked ? undefined : { borderColor: selected ? 'brand.solid' : 'brand.emphasized', boxShadow: selected ? undefined : 'md' }}
      // The card shows the focus ring of its main button (the ring would be clipped inside it).
      css={{
        '&:has(> button:focus-visible)': {
          outline: '2px solid',
          outlineColor: 'var(--chakra-colors-brand-focus-ring)',
          outlineOffset: '2px',
        },
      }}
    >
      <chakra.button
        type="button"
        onClick={() => onChoose(template)}
        aria-pressed={locked ? undefined : selected}
        aria-haspopup={locked ? 'dialog' : undefined}
        display="flex"
        flexDirection="column"
        flex="1"
        w="full"
        textAlign="start"
        cursor="pointer"
        _focusVisible={{ outline: 'none' }}
      >
        <Box position="relative" w="full" bg="bg.muted">
          <CatalogPicture
            src={template.thumbnail}
            loading="lazy"
            decoding="async"
            display="block"
            w="full"
            h="auto"
            aspectRatio="3 / 4"
            filter={locked ? 'grayscale(1)' : undefined}
            opacity={locked ? 0.55 : 1}
          />
          {locked ? (
            <>
              <Badge
                position="absolute"
                top="2"
                left="2"
                size="sm"
                variant="solid"
                colorPalette="gray"
                bg="blackAlpha.700"
                gap="1"
                whiteSpace="nowrap"
              >
                <LockIcon boxSize="3" />
                Locked
              </Badge>
              <Badge position="absolute" top="2" right="2" size="sm" variant="solid" whiteSpace="nowrap">
                {tierName}+
              </Badge>
            </>
          ) : selected ? (
            <Box position="absolute" top="2" right="2">
              <Box
                display="flex"
                alignItems="center"
                justifyContent="center"
                boxSize="6"
                borderRadius="full"
                bg="brand.solid"
                color="brand.contrast"
                boxShadow="sm"
              >
                <CheckIcon boxSize="3.5" />
                <chakra.span srOnly>Selected</chakra.span>
              </Box>
            </Box>
          ) : null}
        </Box>
        <Stack gap="0.5" px="3" pt="2.5" pb={locked ? '1' : '3'}>
          <Text fontSize="sm" fontWeight={selected ? 'semibold' : 'medium'} lineClamp={2} color={locked ? 'fg.muted' : 'fg'}>
            {template.name}
          </Text>
          {locked ? (
            <Text fontSize="xs" color="fg.muted">
              Requires: {tierName}
            </Text>
          ) : (
            <Text fontSize="xs" color="fg.muted" lineClamp={2}>
              {template.description}
            </Text>
          )}
        </Stack>
      </chakra.button>
      {locked ? (
        <Box px="3" pb="3" pt="1">
          <Button asChild size="xs" variant="outline" w="full">
            <RouterLink to={paths.pricing}>Unlock Now</RouterLink>
          </Button>
        </Box>
      ) : null}
    </Box>
  );
}
