import { LICENSE_AGREEMENT_VERSION, PRODUCT_NAME } from '@portal/contract';
import type * as React from 'react';

const HUB = `${PRODUCT_NAME} Hub`;

function Clause({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h3 className="font-semibold text-foreground">
        {n}. {title}
      </h3>
      {children}
    </section>
  );
}

/**
 * The English-law software licence a user accepts before downloading the Hub. Its version is the
 * contract's LICENSE_AGREEMENT_VERSION: change that whenever these words change in substance.
 */
export function DownloadsLicenseText() {
  return (
    <div className="flex flex-col gap-4 text-sm leading-relaxed text-muted-foreground [&_li]:ml-5 [&_ol]:list-[lower-alpha] [&_ol]:flex [&_ol]:flex-col [&_ol]:gap-1">
      <p className="font-medium text-foreground">
        {HUB} software licence (version {LICENSE_AGREEMENT_VERSION})
      </p>
      <p>
        This licence is a legal agreement between you (the person or organisation whose account downloads the software,
        "you") and the company that operates {PRODUCT_NAME} ("we", "us"). Please read it before you download. By ticking
        the box below and downloading, you agree to it. If you do not agree, do not download or use the software.
      </p>

      <Clause n={1} title="Definitions">
        <ol>
          <li>
            "Software" means the {HUB} desktop application, the software development kit and libraries delivered with
            it, its documentation, and every Maintenance Release we deliver to you.
          </li>
          <li>
            "Maintenance Release" means an update, patch, fix or new version of the Software that we make available
            through {PRODUCT_NAME}.
          </li>
          <li>
            "Charges" means the total amount you have paid us for subscriptions, robot licences and dial time in the 12
            months before the event that gives rise to a claim.
          </li>
          <li>"Business Day" means a day other than a Saturday, Sunday or public holiday in England.</li>
        </ol>
      </Clause>

      <Clause n={2} title="Delivery">
        <ol>
          <li>
            We deliver the Software electronically, by a download link from {PRODUCT_NAME}. Delivery happens when the
            download link is made available to you. We do not supply physical media.
          </li>
          <li>
            Each file is published with a checksum. You are responsible for checking that the file you received matches
            it, and for installing the Software on a computer that meets the published system requirements.
          </li>
          <li>Download links expire after a short time and are for your use only; do not share them.</li>
        </ol>
      </Clause>

      <Clause n={3} title="Scope of use">
        <ol>
          <li>
            We grant you a non-exclusive, non-transferable, revocable licence to install and use the Software on
            computers that you own or control, to connect to and operate robots for which you hold a valid robot
            licence, a share from the licence holder, or dial time, for your own business, research, educational or
            personal purposes.
          </li>
          <li>
            You must not: (i) sell, rent, lend, sub-license or otherwise make the Software available to anyone else;
            (ii) copy the Software except for installation and a reasonable number of backup copies; (iii) modify,
            decompile, disassemble or reverse engineer it, except to the extent the law (including sections 50B and 296A
            of the Copyright, Designs and Patents Act 1988) allows you to do so; (iv) remove or bypass the licence
            checks, pairing or dial-time metering; (v) use it to build a product that competes with it; or (vi) remove
            any notice of ownership from it.
          </li>
          <li>
            You are responsible for operating robots safely: carrying out your own risk assessments, supervising robots
            in use, and following the robot manufacturer's instructions. The Software is not designed for
            safety-critical uses, and you must not rely on it as the only means of keeping people or property safe.
          </li>
          <li>You must comply with all export control and sanctions laws that apply to your use of the Software.</li>
        </ol>
      </Clause>

      <Clause n={4} title="Maintenance Releases">
        <ol>
          <li>
            We may make Maintenance Releases available from time to time to fix faults, improve security, support new
            robots or add features. We are not obliged to provide any particular Maintenance Release or feature.
          </li>
          <li>
            You should install Maintenance Releases promptly. We support the current release and the one before it;
            after that, some services of {PRODUCT_NAME} may stop working with an older release.
          </li>
          <li>Every Maintenance Release is licensed to you on the terms of this licence.</li>
        </ol>
      </Clause>

      <Clause n={5} title="Warranties">
        <ol>
          <li>
            We warrant that, for 90 days from delivery, the Software will perform substantially as its documentation
            describes. If it does not, and you tell us within that period, we will at our option correct the fault,
            replace the Software, or refund the Charges you paid for the affected release.
          </li>
          <li>
            That warranty does not apply to faults caused by misuse, by changes to the Software not made by us, by
            robots, hardware or operating systems outside the published requirements, or by third-party software.
          </li>
          <li>
            You accept that software is never entirely free of faults. Except as this licence expressly says, and to the
            extent the law allows, all other warranties, conditions and terms implied by statute or common law are
            excluded.
          </li>
          <li>
            If you are a consumer, you have legal rights under the Consumer Rights Act 2015 that this licence does not
            affect.
          </li>
        </ol>
      </Clause>

      <Clause n={6} title="Limits of liability">
        <ol>
          <li>
            Nothing in this licence limits or excludes our liability for death or personal injury caused by our
            negligence, for fraud or fraudulent misrepresentation, or for anything else that English law does not allow
            us to limit or exclude.
          </li>
          <li>
            Subject to clause 6(a), we are not liable, whether in contract, tort (including negligence) or otherwise,
            for loss of profits, revenue, business, contracts, goodwill, anticipated savings, or for loss or corruption
            of data, or for any indirect or consequential loss.
          </li>
          <li>
            Subject to clause 6(a), our total liability to you for all claims arising out of or in connection with this
            licence is limited to the greater of £100 and the Charges.
          </li>
        </ol>
      </Clause>

      <Clause n={7} title="Intellectual property">
        <ol>
          <li>
            The Software, and all copyright, database rights, patents, trade marks and other intellectual property
            rights in it, belong to us or our licensors. You receive only the rights this licence expressly grants; it
            does not sell the Software to you.
          </li>
          <li>
            Some components of the Software are open-source software, licensed under their own terms, which are listed
            with the Software. Those terms prevail for those components.
          </li>
          <li>If you send us suggestions or feedback, we may use them freely, without any obligation to you.</li>
        </ol>
      </Clause>

      <Clause n={8} title="Termination">
        <ol>
          <li>
            We may end this licence by giving you seven days' written notice if you commit a material breach of it and
            do not remedy the breach within those seven days, or immediately if the breach cannot be remedied.
          </li>
          <li>Either of us may end this licence for any reason by giving the other 30 days' written notice.</li>
          <li>You may also end it at any time by uninstalling the Software and deleting every copy.</li>
          <li>
            When this licence ends, all rights it grants end. Within 14 days after it ends (the discharge period) you
            must stop using the Software, uninstall it, destroy every copy in your possession or control, and pay any
            Charges then due. During the discharge period you may export your own data and robot configurations.
          </li>
          <li>
            Clauses 6, 7, 8(d), 9 and 10, and any other terms that by their nature are meant to continue, survive the
            end of this licence.
          </li>
        </ol>
      </Clause>

      <Clause n={9} title="Notices">
        <ol>
          <li>
            Notices to us must be sent through the support contact form of {PRODUCT_NAME}. Notices to you will be sent
            to the email address of your account, or shown when you sign in.
          </li>
          <li>
            A notice sent by email or the contact form is received when it is sent if that is before 5 pm on a Business
            Day, and otherwise at 9 am on the next Business Day. To prove a notice was sent, it is enough to show it was
            sent to the right address.
          </li>
        </ol>
      </Clause>

      <Clause n={10} title="General, governing law and courts">
        <ol>
          <li>
            This licence, with the terms of use of {PRODUCT_NAME}, is the entire agreement between us about the
            Software. You may not transfer it to anyone else without our written consent; we may transfer it to another
            organisation that takes over the Software, and will tell you if we do.
          </li>
          <li>
            If a court finds part of this licence unlawful, the rest stays in force. If we delay enforcing it, we can
            still enforce it later. No one other than you and us has any right to enforce it.
          </li>
          <li>
            This licence, and any dispute or claim (including non-contractual disputes or claims) arising out of or in
            connection with it, are governed by the law of England and Wales.
          </li>
          <li>
            The courts of England and Wales have exclusive jurisdiction over any such dispute or claim, except that, if
            you are a consumer living in Scotland or Northern Ireland, you may also bring proceedings in your local
            courts.
          </li>
        </ol>
      </Clause>
    </div>
  );
}
