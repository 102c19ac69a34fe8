package io.chronix.engine.segment;

import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.io.FileIO;

import java.nio.file.Path;

/**
 * Getting a segment's series keys: from its {@code .series} sidecar when that is present, intact
 * and made for this very segment (its {@code segment_crc} equals the segment's CRC); otherwise
 * rebuilt from the segment's tag blocks and written again. A missing or damaged sidecar therefore
 * costs one decode of the tag columns, never an error.
 */
public final class SeriesSidecar {

    private static final System.Logger LOG = System.getLogger(SeriesSidecar.class.getName());

    private SeriesSidecar() {
    }

    /**
     * @throws CorruptFileException if the <em>segment</em> is damaged (the sidecar's own damage is repaired)
     */
    public static SeriesIndex loadOrRebuild(FileIO io, Path segmentsDir, Path tmpDir, SegmentFile file) {
        try (SegmentReader segment = SegmentReader.open(io, file.resolve(segmentsDir))) {
            return loadOrRebuild(io, segmentsDir, tmpDir, file, segment);
        }
    }

    /** Like {@link #loadOrRebuild(FileIO, Path, Path, SegmentFile)} with the segment already open. */
    public static SeriesIndex loadOrRebuild(FileIO io, Path segmentsDir, Path tmpDir, SegmentFile file, SegmentReader segment) {
        Path sidecar = file.resolveSidecar(segmentsDir);
        if (io.exists(sidecar)) {
            try {
                SeriesIndex index = SeriesReader.read(io, sidecar);
                if (index.segmentCrc() == segment.meta().crc() && index.series().size() == segment.series().size()) {
                    return index;
                }
                LOG.log(System.Logger.Level.WARNING, "series sidecar belongs to another segment; rebuilding [path=" + sidecar + "]");
            } catch (CorruptFileException | UnsupportedFormatVersionException e) {
                LOG.log(System.Logger.Level.WARNING, "series sidecar unreadable; rebuilding [" + e.getMessage() + "]");
            }
        }
        SeriesIndex rebuilt = segment.seriesIndex();
        SeriesWriter.write(io, tmpDir, sidecar, rebuilt);
        return rebuilt;
    }
}
