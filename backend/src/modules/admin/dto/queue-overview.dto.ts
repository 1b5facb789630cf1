import { ApiProperty } from '@nestjs/swagger';

export class QueueCountsDto {
  @ApiProperty({ type: 'integer' }) waiting: number;
  @ApiProperty({ type: 'integer' }) active: number;
  @ApiProperty({ type: 'integer' }) delayed: number;
  @ApiProperty({ type: 'integer' }) failed: number;
  @ApiProperty({
    type: 'integer',
    description: 'finished jobs still kept (BullMQ keeps them a day); in-process: since the process started',
  })
  completed: number;
}

export class NamedQueueDto {
  @ApiProperty({ example: 'generations' }) name: string;
  @ApiProperty({ type: QueueCountsDto }) counts: QueueCountsDto;
}

export class QueueOverviewDto {
  @ApiProperty({ enum: ['bullmq', 'in-process'] }) driver: string;
  @ApiProperty({ type: [NamedQueueDto], description: 'jobs by state, per queue' }) queues: NamedQueueDto[];
  @ApiProperty() healthy: boolean;
  @ApiProperty({ nullable: true, type: String }) detail: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) last_heartbeat_at: string | null;
  @ApiProperty({ type: QueueCountsDto, description: 'totals over all queues' }) counts: QueueCountsDto;
  @ApiProperty({ type: 'integer', description: 'generations still running' }) running_generations: number;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'where Bull Board is served (BullMQ driver only; open it after POST /api/admin/queue-board/session), else null',
    example: '/api/admin/queue-board',
  })
  board_url: string | null;
}

export class QueueBoardSessionDto {
  @ApiProperty({ example: '/api/admin/queue-board' }) url: string;
  @ApiProperty({ format: 'date-time', description: 'when the board cookie expires' }) expires_at: string;
}
