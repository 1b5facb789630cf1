export {
  assertSafeCustomPose,
  checkCustomPose,
  explainCustomPose,
  CustomPoseRefusedError,
  CUSTOM_POSE_MAX_LENGTH,
  CUSTOM_POSE_SAFETY_MESSAGES,
  SafetyReason,
  type CustomPoseCheck,
} from './custom-pose-safety';
