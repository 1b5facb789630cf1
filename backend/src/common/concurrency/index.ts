export { IMAGE_WORK_GATE, ImageWorkModule } from './image-work.module';
export { WorkGate } from './work-gate';
