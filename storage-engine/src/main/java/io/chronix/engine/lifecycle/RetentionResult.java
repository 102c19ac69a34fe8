package io.chronix.engine.lifecycle;

/**
 * What a retention pass (or a disk-budget drop) removed.
 *
 * @param shardsDropped     shards actually removed: every segment of them went
 * @param segmentsDeleted   segments removed from the catalog and the disk
 * @param segmentsPreserved segments past the cutoff kept because a rollup still needs them
 * @param rowsDeleted       rows those segments held (before tombstones)
 * @param bytesFreed        their file sizes
 */
public record RetentionResult(int shardsDropped, int segmentsDeleted, int segmentsPreserved, long rowsDeleted, long bytesFreed) {

    public static final RetentionResult NOTHING = new RetentionResult(0, 0, 0, 0, 0);

    public RetentionResult plus(RetentionResult o) {
        return new RetentionResult(shardsDropped + o.shardsDropped, segmentsDeleted + o.segmentsDeleted,
                segmentsPreserved + o.segmentsPreserved, rowsDeleted + o.rowsDeleted, bytesFreed + o.bytesFreed);
    }

    public boolean deletedAnything() {
        return segmentsDeleted > 0;
    }
}
