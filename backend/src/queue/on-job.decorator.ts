import { SetMetadata } from '@nestjs/common';
import { ON_JOB_METADATA, type JobName, type JobPayload } from './queue.constants';
import type { JobContext } from './queue.port';

export type JobHandlerMethod<N extends JobName> = (data: JobPayload<N>, ctx: JobContext) => Promise<void> | void;

/**
 * Marks a provider method as the handler of job `name`. The method receives the job's payload and
 * its JobContext; throwing fails the attempt (it is retried per the job's JobOptions). Each job has
 * exactly one handler: a worker refuses to start otherwise (see JobRegistry).
 *
 *   @OnJob(JobName.GenerationPoll)
 *   async poll(data: JobPayload<JobName.GenerationPoll>, ctx: JobContext) { ... }
 */
export function OnJob<N extends JobName>(name: N) {
  const setMetadata = SetMetadata(ON_JOB_METADATA, name);
  // `descriptor` is typed by its value only, so a method whose parameters do not fit job N's
  // payload is a compile error (a full TypedPropertyDescriptor would be invariant and refuse
  // handlers that ignore their arguments).
  return (target: object, key: string | symbol, descriptor: { value?: JobHandlerMethod<N> }): void => {
    setMetadata(target, key, descriptor as TypedPropertyDescriptor<JobHandlerMethod<N>>);
  };
}
