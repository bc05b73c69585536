-- AlterTable: per-outcome evaluation state, projected from the event log by the turn runner
ALTER TABLE "sessions" ADD COLUMN     "outcome_evaluations" JSONB NOT NULL DEFAULT '[]';
