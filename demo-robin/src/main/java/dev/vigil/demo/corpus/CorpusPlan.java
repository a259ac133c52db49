package dev.vigil.demo.corpus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The corpus's sessions from a seed: every scenario's sessions, shuffled, numbered per agent in the
 * order they are played, each with its script line and what it plants.
 *
 * @param shop the shop's script lines, in order
 * @param robin Robin's script lines, in order
 * @param planted what each session plants, shop's first
 * @param lostReminders the reminder ids the backend must lose
 */
record CorpusPlan(
    List<ObjectNode> shop,
    List<ObjectNode> robin,
    List<Planted> planted,
    Set<String> lostReminders) {
  /** Every scenario of the corpus. */
  static List<Kind> kinds() {
    List<Kind> all = new ArrayList<>(ShopClean.KINDS);
    all.addAll(ShopFailures.KINDS);
    all.addAll(RobinScenarios.KINDS);
    return all;
  }

  static CorpusPlan of(long seed) {
    Pick p = new Pick(seed);
    List<Kind> sessions = new ArrayList<>();
    for (Kind k : kinds()) {
      for (int i = 0; i < k.count(); i++) {
        sessions.add(k);
      }
    }
    Collections.shuffle(sessions, p.random());
    List<ObjectNode> shop = new ArrayList<>();
    List<ObjectNode> robin = new ArrayList<>();
    List<Planted> shopPlanted = new ArrayList<>();
    List<Planted> robinPlanted = new ArrayList<>();
    RobinScenarios robinScenarios = new RobinScenarios();
    for (Kind k : sessions) {
      boolean isShop = k.agent().equals(ShopClean.AGENT);
      String id = String.format("%s-%03d", k.agent(), (isShop ? shop.size() : robin.size()) + 1);
      Conversation c = new Conversation(id);
      if (!isShop) {
        robinScenarios.play(k.name(), p, c);
      } else if (k.failed()) {
        ShopFailures.play(k.name(), p, c);
      } else {
        ShopClean.play(k.name(), p, c);
      }
      (isShop ? shop : robin).add(c.json());
      (isShop ? shopPlanted : robinPlanted)
          .add(new Planted(id, k.agent(), k.name(), k.failed(), k.target()));
    }
    List<Planted> planted = new ArrayList<>(shopPlanted);
    planted.addAll(robinPlanted);
    return new CorpusPlan(
        List.copyOf(shop), List.copyOf(robin), List.copyOf(planted), robinScenarios.lost());
  }
}
