import { Global, Module } from '@nestjs/common';
import { OutcomeDefinitions } from './outcome-definitions.js';
import { OutcomeEvaluationsRepository } from './outcome-evaluations.repository.js';
import { OutcomeLoop } from './outcome-loop.js';

/** `user.define_outcome`: accepting outcomes and grading the agent's work against their rubric. */
@Global()
@Module({
  providers: [OutcomeDefinitions, OutcomeEvaluationsRepository, OutcomeLoop],
  exports: [OutcomeDefinitions, OutcomeLoop],
})
export class OutcomesModule {}
