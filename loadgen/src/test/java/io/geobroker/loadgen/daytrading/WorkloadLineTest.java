package io.geobroker.loadgen.daytrading;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class WorkloadLineTest {

    static final Path WL_2_USER = Path.of("src/test/resources/day-trading/WL_2_USER.txt");

    @Test
    void parses_a_line_and_drops_its_trailing_space() {
        WorkloadLine line = WorkloadLine.parse("[3] BUY,Fuspmx2FbF,ZUL,535.81 ");
        assertThat(line.transactionNum()).isEqualTo(3);
        assertThat(line.command()).isEqualTo("BUY");
        assertThat(line.user()).isEqualTo("Fuspmx2FbF");
        assertThat(line.text()).isEqualTo("[3] BUY,Fuspmx2FbF,ZUL,535.81");
        assertThat(line.malformed()).isFalse();
        assertThat(line.barrier()).isFalse();
        assertThat(WorkloadLine.parse("[5] COMMIT_BUY,Fuspmx2FbF \r").text()).isEqualTo("[5] COMMIT_BUY,Fuspmx2FbF");
    }

    @Test
    void tells_the_admin_dumplog_from_a_users() {
        WorkloadLine admin = WorkloadLine.parse("[10000] DUMPLOG,./testLOG");
        assertThat(admin.user()).isNull();
        assertThat(admin.adminDumplog()).isTrue();
        assertThat(admin.barrier()).isTrue();
        WorkloadLine user = WorkloadLine.parse("[7] DUMPLOG,gDp4mjqeaH,./userLOG ");
        assertThat(user.user()).isEqualTo("gDp4mjqeaH");
        assertThat(user.adminDumplog()).isFalse();
        assertThat(user.barrier()).isFalse();
    }

    @Test
    void malformed_lines_have_no_command_and_no_user_and_are_barriers() {
        for (String raw : List.of("garbage", "[x] BUY,a,b,1.00", "BUY,abc,DEF,1.00", "[12]", "[12] ,abc", "[] ADD,a,1.00")) {
            WorkloadLine line = WorkloadLine.parse(raw);
            assertThat(line.malformed()).as(raw).isTrue();
            assertThat(line.user()).as(raw).isNull();
            assertThat(line.barrier()).as(raw).isTrue();
            assertThat(line.text()).isEqualTo(raw.strip());
        }
        assertThat(WorkloadLine.parse("   ")).isNull();
        assertThat(WorkloadLine.parse("")).isNull();
        WorkloadLine noFields = WorkloadLine.parse("[4] DISPLAY_SUMMARY");
        assertThat(noFields.malformed()).as("a command without its fields is the broker's to refuse").isFalse();
        assertThat(noFields.user()).isNull();
    }

    @Test
    void prefixes_the_user_and_only_the_user() {
        WorkloadLine line = WorkloadLine.parse("[1] ADD,gDp4mjqeaH,63511.53 ").withUserPrefix("w3k9x-");
        assertThat(line.user()).isEqualTo("w3k9x-gDp4mjqeaH");
        assertThat(line.text()).isEqualTo("[1] ADD,w3k9x-gDp4mjqeaH,63511.53");
        assertThat(WorkloadLine.parse("[2] DUMPLOG,abc,./abcLOG").withUserPrefix("p-").text())
                .isEqualTo("[2] DUMPLOG,p-abc,./abcLOG");
        assertThat(WorkloadLine.parse("[3] ADD, abc,1.00").withUserPrefix("p-").text()).isEqualTo("[3] ADD, p-abc,1.00");
        assertThat(WorkloadLine.parse("[9] DUMPLOG,./testLOG").withUserPrefix("p-").text()).isEqualTo("[9] DUMPLOG,./testLOG");
        assertThat(WorkloadLine.parse("junk").withUserPrefix("p-").text()).isEqualTo("junk");
    }

    @Test
    void reads_a_file_without_a_final_newline_skipping_blank_lines() throws Exception {
        String text = "[1] ADD,a,1.00 \n\n  \r\n[2] QUOTE,b,ABC \r\nnot a line\n[3] DUMPLOG,./testLOG";
        List<WorkloadLine> lines = new ArrayList<>();
        try (WorkloadFile file = new WorkloadFile(new BufferedReader(new StringReader(text)), "p-")) {
            file.forEachRemaining(lines::add);
            assertThat(file.lines()).isEqualTo(4);
            assertThat(file.malformed()).isEqualTo(1);
            assertThat(file.lastTransactionNum()).isEqualTo(3);
        }
        assertThat(lines).extracting(WorkloadLine::text)
                .containsExactly("[1] ADD,p-a,1.00", "[2] QUOTE,p-b,ABC", "not a line", "[3] DUMPLOG,./testLOG");
        Path tmp = Files.createTempFile("wl", ".txt");
        try {
            Files.writeString(tmp, text);
            assertThat(WorkloadFile.countLines(tmp)).isEqualTo(4);
            Files.writeString(tmp, text + "\n\n");
            assertThat(WorkloadFile.countLines(tmp)).isEqualTo(4);
        } finally {
            Files.delete(tmp);
        }
    }

    @Test
    void reads_the_courses_two_user_file() throws Exception {
        Set<String> users = new HashSet<>();
        WorkloadLine last = null;
        long n = 0;
        try (WorkloadFile file = new WorkloadFile(WL_2_USER, "")) {
            while (file.hasNext()) {
                last = file.next();
                n++;
                assertThat(last.transactionNum()).isEqualTo(n);
                assertThat(last.malformed()).isFalse();
                if (last.user() != null) {
                    users.add(last.user());
                }
            }
        }
        assertThat(n).isEqualTo(10_000).isEqualTo(WorkloadFile.countLines(WL_2_USER));
        assertThat(users).containsExactlyInAnyOrder("gDp4mjqeaH", "Fuspmx2FbF");
        assertThat(last.adminDumplog()).isTrue();
        assertThat(last.text()).isEqualTo("[10000] DUMPLOG,./testLOG");
    }
}
