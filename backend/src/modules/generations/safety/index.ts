export {
  assertSafeCustomPose,
  assessCustomPose,
  checkCustomPose,
  explainCustomPose,
  CustomPoseRefusedError,
  CUSTOM_POSE_MAX_LENGTH,
  CUSTOM_POSE_SAFETY_MESSAGES,
  SafetyReason,
  type CustomPoseAssessment,
  type CustomPoseCheck,
  type Finding,
} from './custom-pose-safety';
