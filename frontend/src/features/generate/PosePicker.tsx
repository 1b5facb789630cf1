import { Badge, chakra, HStack, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { CustomPoseMessages } from '@fitting-room/shared';
import { useId } from 'react';
import { FormField } from '../../components/FormField';
import { LockIcon, PlusIcon } from '../../components/icons';
import { type Catalog, formatCredits, type PoseChoice, tierName } from '../catalog/catalog-helpers';
import { CatalogPicture } from '../catalog/CatalogPicture';
import { CustomPoseHelp } from './CustomPoseHelp';
import type { CustomPoseNotUnderstood } from './custom-pose-help';
import type { CatalogSceneDto } from '@fitting-room/api-client';

/** The most a custom pose may say; the server checks it again. */
export const CUSTOM_POSE_MAX_LENGTH = 300;

interface PosePickerProps {
  catalog: Catalog;
  scenes: CatalogSceneDto[];
  pose: PoseChoice;
  onPoseChange(pose: PoseChoice): void;
  customPose: string;
  onCustomPoseChange(text: string): void;
  customPoseHint: string;
  /** What the last Generate's check did not understand in the custom pose, until it changes. */
  customPoseNotUnderstood?: CustomPoseNotUnderstood | undefined;
  disabled: boolean;
  labelId: string;
}

const poseButtonStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '2.5',
  w: 'full',
  minH: '14',
  p: '1.5',
  pe: '3',
  ps: { base: '3', sm: '1.5' },
  textAlign: 'start',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  bg: 'bg.panel',
  cursor: 'pointer',
  transition: 'border-color 0.15s, background 0.15s, box-shadow 0.15s',
  _hover: { borderColor: 'brand.emphasized' },
  _pressed: { borderColor: 'brand.solid', bg: 'brand.subtle', boxShadow: '0 0 0 1px var(--chakra-colors-brand-solid)' },
  _disabled: { cursor: 'not-allowed', opacity: 0.55, bg: 'bg.subtle', _hover: { borderColor: 'border' } },
} as const;

function PoseThumb({ src }: { src: string }) {
  return (
    <CatalogPicture
      src={src}
      loading="lazy"
      decoding="async"
      // phones: two columns of buttons, no room for the picture
      hideBelow="sm"
      w="9"
      h="12"
      flexShrink="0"
      borderRadius="md"
      bg="bg.muted"
    />
  );
}

/**
 * The pose buttons of a category (its scenes, locked ones disabled with their tier, each with its
 * credit cost) and "+ Custom", which reveals a text input. Choosing one clears the other.
 */
export function PosePicker({
  catalog,
  scenes,
  pose,
  onPoseChange,
  customPose,
  onCustomPoseChange,
  customPoseHint,
  customPoseNotUnderstood,
  disabled,
  labelId,
}: PosePickerProps) {
  const customInputId = useId();
  const customMode = pose?.kind === 'custom';
  return (
    <Stack gap="3">
      <SimpleGrid role="group" aria-labelledby={labelId} columns={2} gap="2">
        {scenes.map((scene) => {
          const selected = pose?.kind === 'scene' && pose.sceneId === scene.id;
          const tier = tierName(catalog, scene.requiredTier);
          return (
            <chakra.button
              key={scene.id}
              type="button"
              aria-pressed={selected}
              disabled={disabled || scene.locked}
              onClick={() => onPoseChange({ kind: 'scene', sceneId: scene.id })}
              title={scene.locked ? `Requires: ${tier}` : scene.description}
              {...poseButtonStyles}
            >
              <PoseThumb src={scene.thumbnail} />
              <Stack gap="0.5" flex="1" minW="0">
                <Text fontSize="sm" fontWeight="medium" lineClamp={2}>
                  {scene.name}
                </Text>
                <HStack gap="1.5" fontSize="xs" color="fg.muted" wrap="wrap">
                  <Text>{formatCredits(scene.creditCost)}</Text>
                  {scene.locked ? (
                    <Badge size="xs" variant="subtle" colorPalette="gray" gap="1">
                      <LockIcon boxSize="2.5" />
                      {tier}+
                    </Badge>
                  ) : null}
                </HStack>
              </Stack>
            </chakra.button>
          );
        })}
        <chakra.button
          type="button"
          aria-pressed={customMode}
          aria-expanded={customMode}
          aria-controls={customMode ? customInputId : undefined}
          disabled={disabled || catalog.customPose.locked}
          onClick={() => onPoseChange(customMode ? null : { kind: 'custom' })}
          {...poseButtonStyles}
          borderStyle="dashed"
        >
          <chakra.span
            hideBelow="sm"
            display="flex"
            alignItems="center"
            justifyContent="center"
            w="9"
            h="12"
            flexShrink="0"
            borderRadius="md"
            bg="bg.subtle"
            color="brand.fg"
          >
            <PlusIcon />
          </chakra.span>
          <Stack gap="0" flex="1" minW="0">
            <Text fontSize="sm" fontWeight="medium">
              + Custom
            </Text>
            <Text fontSize="xs" color="fg.muted">
              {formatCredits(catalog.customPose.creditCost)}
            </Text>
          </Stack>
        </chakra.button>
      </SimpleGrid>
      {customMode ? (
        <Stack gap="3">
          <FormField
            id={customInputId}
            disabled={disabled}
            label="Describe your pose"
            helperText={`Describe the pose and the setting in everyday words. ${CustomPoseMessages.englishOnly} Requests for nudity, minors or other real people are refused.`}
          >
            <Input
              value={customPose}
              onChange={(event) => onCustomPoseChange(event.target.value)}
              placeholder={customPoseHint}
              maxLength={CUSTOM_POSE_MAX_LENGTH}
              autoComplete="off"
              spellCheck
              bg="bg.panel"
            />
          </FormField>
          <CustomPoseHelp
            text={customPose}
            onTextChange={onCustomPoseChange}
            maxLength={CUSTOM_POSE_MAX_LENGTH}
            disabled={disabled}
            refused={customPoseNotUnderstood}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
