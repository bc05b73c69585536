-- The durable copy of the Hands workspace of a session keeps what a restore needs to reproduce the tree exactly:
-- mode bits, symlinks (their target, never followed) and files of any size (in chunks beside the row).
ALTER TABLE "hands_workspace_files" ADD COLUMN "mode" INTEGER NOT NULL DEFAULT 420;
ALTER TABLE "hands_workspace_files" ADD COLUMN "link_target" TEXT;
ALTER TABLE "hands_workspace_files" ALTER COLUMN "size" TYPE BIGINT;
ALTER TABLE "hands_workspace_files" DROP CONSTRAINT "hands_workspace_files_kind_check";
ALTER TABLE "hands_workspace_files" ADD CONSTRAINT "hands_workspace_files_kind_check"
    CHECK ("kind" IN ('file', 'dir', 'symlink'));

-- The content of a large file, in order: version is the version of the file row the chunks belong to, so a half
-- written new content never replaces the old one.
CREATE TABLE "hands_workspace_chunks" (
    "root" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "version" BIGINT NOT NULL,
    "seq" INTEGER NOT NULL,
    "content" BYTEA NOT NULL,

    CONSTRAINT "hands_workspace_chunks_pkey" PRIMARY KEY ("root","path","version","seq")
);

-- Which worker holds the durable copy of each session, under which binding epoch: every write to the copy checks
-- this row in the same statement, so a worker that lost the session cannot overwrite the files of its successor.
CREATE TABLE "hands_workspace_fences" (
    "tenant_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "epoch" BIGINT NOT NULL,
    "worker_id" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hands_workspace_fences_pkey" PRIMARY KEY ("tenant_id","session_id")
);

-- Rows stored before modes were kept: directories must stay traversable.
UPDATE "hands_workspace_files" SET "mode" = 493 WHERE "kind" = 'dir';
