package io.chronix.engine;

import io.chronix.engine.memtable.LastValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TagImagesTest {

    private static LastPointReader.Latest row(String... tags) {
        byte[][] utf8 = new byte[tags.length][];
        for (int t = 0; t < tags.length; t++) {
            utf8[t] = tags[t] == null ? null : tags[t].getBytes(StandardCharsets.UTF_8);
        }
        return new LastPointReader.Latest(tags, utf8, (LastValue.Snapshot) null);
    }

    @Test
    void theSameSeriesInTheSameOrderShareTheirImages() {
        TagImages images = new TagImages();
        List<LastPointReader.Latest> rows = List.of(row("a", "x"), row(null, "y"), row("ccc", "z"));
        TagImages.Rows first = images.forRows(rows, 2);
        TagImages.Image tag0 = first.image(0);
        assertThat(images.forRows(new ArrayList<>(rows), 2)).isSameAs(first);
        assertThat(first.image(0)).isSameAs(tag0);
        // another order, a subset, or another tag count: built again
        assertThat(images.forRows(List.of(rows.get(1), rows.get(0), rows.get(2)), 2)).isNotSameAs(first);
        assertThat(images.forRows(rows.subList(0, 2), 2).image(0)).isNotSameAs(tag0);
        assertThat(images.forRows(rows, 3)).isNotSameAs(first);
        // equal bytes in other arrays are other series (a schema change gives every series new arrays)
        TagImages.Rows copies = images.forRows(List.of(row("a", "x"), row(null, "y"), row("ccc", "z")), 2);
        assertThat(copies).isNotSameAs(first);
        assertThat(copies.image(0).data()).isEqualTo(tag0.data());
    }

    @Test
    void anImageIsTheArrowBuffersOfTheColumn() {
        TagImages.Image im = new TagImages().forRows(List.of(row("a", "x"), row(null, "y"), row("ccc", null)), 2).image(0);
        assertThat(new String(im.data(), StandardCharsets.UTF_8)).isEqualTo("accc");
        assertThat(im.offsets()).containsExactly(0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0);
        assertThat(im.validity()).containsExactly(0b101);
    }
}
