package io.chronix.engine.wal;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.WalIoException;
import io.chronix.engine.io.FileIO;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.List;

/**
 * Recovery of a log at open: replays every intact record (above a floor the caller already holds
 * elsewhere, e.g. in sealed segments), cuts a torn tail back to the last intact record, and refuses
 * corruption.
 *
 * <p>A cut tail is never silent: it is logged at WARN with file and offset and counted in {@link
 * WalMetrics#truncations()}. Records lost that way were never acknowledged under {@code PER_WRITE}
 * or {@code PER_BATCH}; under {@code PERIODIC} they are the power-loss window the policy allows.
 *
 * <p>Threading: runs on the caller's thread, before the writer exists.
 */
public final class WalLoader {

    private static final System.Logger LOG = System.getLogger(WalLoader.class.getName());

    /**
     * The state recovery leaves for the writer.
     *
     * @param files the log's files in sequence order after any cut
     * @param lastSequence the highest intact sequence, 0 for an empty log
     * @param scan what the reader found before the cut
     */
    public record Recovered(List<Path> files, long lastSequence, WalReader.Scan scan) {
    }

    private WalLoader() {
    }

    /**
     * Recovers the log in {@code config.directory()}, passing every intact record with a sequence
     * above {@code replayAfter} to {@code visitor} in sequence order. Records are handed over as the
     * scan meets them, before the whole log is known to be sound: if this method throws, the caller
     * must discard what the visitor built.
     *
     * @throws CorruptFileException if damage is found anywhere but the tail; the message names file
     *     and offset, and {@code chronix-tool wal repair} is the way forward
     * @throws io.chronix.engine.error.UnsupportedFormatVersionException for a file of another version
     */
    public static Recovered load(WalConfig config, WalMetrics metrics, long replayAfter, WalRecord.Visitor visitor) {
        FileIO io = config.io();
        Path dir = config.directory();
        try {
            io.createDirectories(dir);
        } catch (IOException e) {
            throw new WalIoException("create directory", dir, -1, e);
        }
        WalReader.Scan scan = WalReader.scan(io, dir, record -> {
            if (record.sequence() > replayAfter) {
                visitor.accept(record);
            }
        });
        List<Path> files = WalReader.walFiles(io, dir);
        WalReader.Damage damage = scan.damage();
        if (damage != null && damage.kind() == WalReader.DamageKind.CORRUPT) {
            throw new CorruptFileException(damage.file(), damage.offset(),
                    damage.reason() + " (not a torn tail; 'chronix-tool wal repair' keeps everything before it)");
        }
        if (damage != null) {
            cutTornTail(io, dir, damage, metrics);
            files = WalReader.walFiles(io, dir);
        } else if (!scan.files().isEmpty()) {
            trimZeroTail(io, scan.files().getLast());
        }
        return new Recovered(files, scan.lastSequence(), scan);
    }

    /**
     * Cuts the preallocated zeros after the last record of the file the writer will append to, so
     * that it appends at the file's end and preallocates afresh. Nothing is lost, so nothing is
     * reported.
     */
    private static void trimZeroTail(FileIO io, WalReader.FileSummary last) {
        if (last.validLength() >= last.size()) {
            return;
        }
        try {
            io.truncate(last.file(), last.validLength());
        } catch (IOException e) {
            throw new WalIoException("trim preallocated tail", last.file(), last.validLength(), e);
        }
    }

    /** Cuts the last file back to its last intact record, or removes it if even its header is torn. */
    static void cutTornTail(FileIO io, Path dir, WalReader.Damage damage, WalMetrics metrics) {
        assert damage.kind() == WalReader.DamageKind.TORN_TAIL : "only a torn tail is cut at open";
        LOG.log(Level.WARNING, "WAL torn tail truncated: file={0} offset={1} droppedBytes={2} reason={3}",
                damage.file(), damage.offset(), damage.droppedBytes(), damage.reason());
        try {
            if (damage.offset() < WalFormat.HEADER_SIZE) {
                io.delete(damage.file());
                io.syncDirectory(dir);
            } else {
                io.truncate(damage.file(), damage.offset());
            }
        } catch (IOException e) {
            throw new WalIoException("truncate torn tail", damage.file(), damage.offset(), e);
        }
        metrics.truncated(damage.droppedBytes());
    }
}
